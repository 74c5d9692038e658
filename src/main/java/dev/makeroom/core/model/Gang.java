package dev.makeroom.core.model;

import java.util.Collection;

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

    /**
     * This gang with the minimum its {@code members} state too: the smallest of this one's and theirs,
     * a member that states none counting as {@link #EVERY_MEMBER}.
     */
    public Gang withMinimumOf(Collection<PodInfo> members) {
        int minimum = minMember;
        for (PodInfo member : members) {
            minimum = Math.min(minimum, member.gang().minMember());
        }
        return minimum == minMember ? this : new Gang(namespace, system, name, minimum);
    }

    /** This gang with the minimum its own object states (a PodGroup's), whatever its members say. */
    public Gang withMinimum(int stated) {
        return stated == minMember ? this : new Gang(namespace, system, name, Math.max(1, stated));
    }

    /** How many of its {@code running} members may go while it keeps its minimum. */
    public int slack(int running) {
        return minMember == EVERY_MEMBER ? 0 : Math.max(0, running - minMember);
    }

    /** Whether {@code running} members, of whom {@code evicted} are evicted, leave fewer than the minimum running. */
    public boolean brokenBy(int running, int evicted) {
        return evicted > slack(running);
    }

    @Override
    public String toString() {
        return namespace + "/" + name + " (" + system + (minMember == EVERY_MEMBER ? ", every member needed"
                : ", at least " + minMember + " needed") + ")";
    }
}
