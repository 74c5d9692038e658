package dev.makeroom.core.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A queue placed in its tree: full name ({@code root.tenant1.batch}), parent, children and depth.
 * Resources a queue does not list in {@code guaranteed} or {@code max} are unconstrained for it.
 */
public final class Queue {

    public static final Duration DEFAULT_DELAY = Duration.ofSeconds(30);

    private final String fullName;
    private final Queue parent;
    private final int depth;
    private final Map<String, Long> guaranteed;
    private final Map<String, Long> max;
    private final QueuePolicy policy;
    private final Duration delay;
    private final List<Queue> children = new ArrayList<>();

    Queue(Queue parent, QueueSpec spec) {
        this.parent = parent;
        this.fullName = parent == null ? spec.name() : parent.fullName + "." + spec.name();
        this.depth = parent == null ? 0 : parent.depth + 1;
        this.guaranteed = spec.guaranteed();
        this.max = spec.max();
        this.policy = spec.policy();
        this.delay = spec.delay() == null ? DEFAULT_DELAY : spec.delay();
    }

    void addChild(Queue child) {
        children.add(child);
    }

    public String fullName() {
        return fullName;
    }

    public Queue parent() {
        return parent;
    }

    public int depth() {
        return depth;
    }

    public List<Queue> children() {
        return List.copyOf(children);
    }

    public boolean isLeaf() {
        return children.isEmpty();
    }

    public Map<String, Long> guaranteed() {
        return guaranteed;
    }

    public Map<String, Long> max() {
        return max;
    }

    public QueuePolicy policy() {
        return policy;
    }

    /** How long a pending pod of this leaf waits before it may take from other queues. */
    public Duration delay() {
        return delay;
    }

    /** Whether {@code other} is this queue or lies below it. */
    public boolean contains(Queue other) {
        for (Queue q = other; q != null; q = q.parent) {
            if (q == this) {
                return true;
            }
        }
        return false;
    }

    /** The nearest queue, this one or above, with {@code preemption.policy: fence}; null when none. */
    public Queue fence() {
        for (Queue q = this; q != null; q = q.parent) {
            if (q.policy == QueuePolicy.FENCE) {
                return q;
            }
        }
        return null;
    }

    /** The queue, this one or above, whose {@code disabled} policy covers this one; null when none. */
    public Queue disabledBy() {
        for (Queue q = this; q != null; q = q.parent) {
            if (q.policy == QueuePolicy.DISABLED) {
                return q;
            }
        }
        return null;
    }

    /** This queue and its ancestors up to, not including, {@code stop} (null: up to and including root). */
    public List<Queue> pathUpTo(Queue stop) {
        List<Queue> path = new ArrayList<>(depth + 1);
        for (Queue q = this; q != null && q != stop; q = q.parent) {
            path.add(q);
        }
        return path;
    }

    public static Queue lowestCommonAncestor(Queue a, Queue b) {
        while (a.depth > b.depth) {
            a = a.parent;
        }
        while (b.depth > a.depth) {
            b = b.parent;
        }
        while (a != b) {
            a = a.parent;
            b = b.parent;
        }
        return a;
    }

    @Override
    public String toString() {
        return fullName;
    }
}
