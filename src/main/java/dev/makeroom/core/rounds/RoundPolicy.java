package dev.makeroom.core.rounds;

/**
 * One rescheduler policy: what it reads of the policies document ({@link PolicyReader}: its section,
 * its settings with their defaults and checks) and what it plans. A round runs the ones on in the order
 * the planner registers them; each plans its moves (and drains, and rooms) into the
 * {@link Round}, which counts every move against the limits and budgets and keeps the planned state the
 * later policies see. A new policy is its class, its settings record and one line in that registration
 * (docs/design.md shows one).
 */
public interface RoundPolicy<S extends PolicySettings> extends PolicyReader<S> {

    /** Whether the policies document turns the policy on. */
    default boolean on(RescheduleSettings settings) {
        return settings.policy(settingsType()).enabled();
    }

    /** Whether a round runs it: when it is on, unless it has work to finish when off. */
    default boolean runs(RescheduleSettings settings) {
        return on(settings);
    }

    /** The rule this policy keeps over the other policies' landings, under {@code settings}. */
    default LandingRule landingRule(RescheduleSettings settings) {
        return LandingRule.NONE;
    }

    void plan(Round round);
}
