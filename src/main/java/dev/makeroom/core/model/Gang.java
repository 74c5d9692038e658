package dev.makeroom.core.model;

/**
 * A group of pods that make progress only together (a training job's workers, a leader and its
 * workers): when fewer than {@code minMember} of its members keep running, the framework that runs
 * them restarts the whole group, so every running member stops. {@code system} names who formed it
 * (the label or field it was read from), {@code name} the group within the pod's namespace.
 * {@link #EVERY_MEMBER} when the minimum is not known: then every running member is needed.
 */
public record Gang(String namespace, String system, String name, int minMember) {

    /** The minimum of a gang whose minimum makeroom cannot read: losing any member stops it. */
    public static final int EVERY_MEMBER = Integer.MAX_VALUE;

    public Gang {
        if (minMember < 1) {
            throw new IllegalArgumentException("a gang's minimum is at least 1: " + minMember);
        }
    }

    /** The gang's identity: its members agree on it even when only some of them carry its minimum. */
    public String key() {
        return namespace + "/" + system + ":" + name;
    }

    /** Whether {@code running} members, of whom {@code evicted} are evicted, leave fewer than the minimum running. */
    public boolean brokenBy(int running, int evicted) {
        return evicted > 0 && running - evicted < minMember;
    }

    @Override
    public String toString() {
        return namespace + "/" + name + " (" + system + (minMember == EVERY_MEMBER ? ", every member needed"
                : ", at least " + minMember + " needed") + ")";
    }
}
