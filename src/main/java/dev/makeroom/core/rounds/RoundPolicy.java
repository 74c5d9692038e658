package dev.makeroom.core.rounds;

/**
 * One rescheduler policy. A round runs the ones on in the order {@link ReschedulePlanner} registers
 * them; each plans its moves (and drains, and rooms) into the {@link Round}, which counts every move
 * against the limits and budgets and keeps the planned state the later policies see. A new policy is a
 * new implementation, its settings record in {@link RescheduleSettings} and its place in the order.
 */
interface RoundPolicy {

    /** The policy's name, as moves, skips and plans say it. */
    ReschedulePolicy kind();

    /** Whether the policies document turns the policy on. */
    boolean on(RescheduleSettings settings);

    /** Whether a round runs it: when it is on, unless it has work to finish when off. */
    default boolean runs(RescheduleSettings settings) {
        return on(settings);
    }

    void plan(Round round);
}
