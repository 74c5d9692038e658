package dev.makeroom.core.placement;

/**
 * The answer for one pod on one node: the first filter that did not pass ({@code null} when all did),
 * its verdict, and the reason in the scheduler's words.
 */
public record Placement(Filter filter, Verdict verdict, String reason) {

    public static final Placement FITS = new Placement(null, Verdict.FITS, null);

    /** Room held on the node for another pod keeps this one off ({@link Filter#RESERVATION}). */
    public static Placement keptOffHeldRoom(String reason) {
        return unresolvable(Filter.RESERVATION, reason);
    }

    static Placement unschedulable(Filter filter, String reason) {
        return new Placement(filter, Verdict.UNSCHEDULABLE, reason);
    }

    static Placement unresolvable(Filter filter, String reason) {
        return new Placement(filter, Verdict.UNRESOLVABLE, reason);
    }

    static Placement unknown(Filter filter, String reason) {
        return new Placement(filter, Verdict.UNKNOWN, "unknown: " + reason);
    }

    public boolean fits() {
        return verdict == Verdict.FITS;
    }

    /** Whether the scheduler would try preemption on the node: only a filter that removing pods can satisfy failed. */
    public boolean resolvable() {
        return verdict == Verdict.UNSCHEDULABLE;
    }
}
