package dev.makeroom.core.rounds;

/**
 * One rescheduler policy. A round runs the enabled ones in the order {@link ReschedulePlanner} registers
 * them; each plans its moves (and drains, and rooms) into the {@link Round}, which counts every move
 * against the limits and budgets and keeps the planned state the later policies see. A new policy is a
 * new implementation, its settings record in {@link RescheduleSettings} and its place in the order.
 */
interface RoundPolicy {

    /** Whether this round runs the policy under {@code settings}. */
    boolean enabled(RescheduleSettings settings);

    void plan(Round round);
}
