package dev.makeroom.core.queue;

import dev.makeroom.core.model.PodInfo;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A validated queue configuration: the tree under {@code root}, looked up by full name, and where
 * pods go. {@link #OFF} (no configuration) turns every queue rule off.
 */
public final class QueueTree {

    /** The namespace annotation naming the leaf queue for its pods. */
    public static final String NAMESPACE_QUEUE_ANNOTATION = "makeroom.dev/queue";

    /** {@code system-cluster-critical}: pods at or above it are the cluster's own and ignore queues. */
    public static final int SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

    public static final QueueTree OFF = new QueueTree();

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]+");

    private final Map<String, Queue> byName = new LinkedHashMap<>();
    private final Queue root;
    private final Queue defaultQueue;

    private QueueTree() {
        this.root = null;
        this.defaultQueue = null;
    }

    private QueueTree(QueueSpec rootSpec, String defaultQueueName) {
        if (rootSpec == null || !"root".equals(rootSpec.name())) {
            throw new InvalidQueueConfigException("the queue tree must have exactly one top queue, named root");
        }
        this.root = place(null, rootSpec);
        if (defaultQueueName == null || defaultQueueName.isBlank()) {
            this.defaultQueue = null;
        } else {
            Queue q = byName.get(qualified(defaultQueueName.trim()));
            if (q == null || !q.isLeaf()) {
                throw new InvalidQueueConfigException("defaultQueue " + defaultQueueName + " is not a leaf queue");
            }
            this.defaultQueue = q;
        }
    }

    /** Validates and builds a tree; throws {@link InvalidQueueConfigException} naming the first problem. */
    public static QueueTree of(QueueSpec root, String defaultQueue) {
        return new QueueTree(root, defaultQueue);
    }

    private Queue place(Queue parent, QueueSpec spec) {
        String where = parent == null ? spec.name() : parent.fullName() + "." + spec.name();
        if (spec.name() == null || !NAME.matcher(spec.name()).matches()) {
            throw new InvalidQueueConfigException("queue name '" + spec.name() + "' under "
                    + (parent == null ? "the top" : parent.fullName()) + " must be letters, digits, '-' or '_'");
        }
        checkAmounts(where, "guaranteed", spec.guaranteed());
        checkAmounts(where, "max", spec.max());
        spec.guaranteed().forEach((r, amount) -> {
            Long max = spec.max().get(r);
            if (max != null && amount > max) {
                throw new InvalidQueueConfigException(where + ": guaranteed " + r + " exceeds its max");
            }
        });
        if (spec.delay() != null && (spec.delay().isZero() || spec.delay().isNegative())) {
            throw new InvalidQueueConfigException(where + ": preemption.delay must be more than 0");
        }
        Queue queue = new Queue(parent, spec);
        byName.put(queue.fullName(), queue);
        Set<String> seen = new HashSet<>();
        for (QueueSpec child : spec.children()) {
            if (!seen.add(child.name())) {
                throw new InvalidQueueConfigException(where + " has two children named " + child.name());
            }
            queue.addChild(place(queue, child));
        }
        checkChildren(where, spec);
        return queue;
    }

    /** Children may not be promised more than their parent, nor allowed more than its max. */
    private static void checkChildren(String where, QueueSpec spec) {
        spec.guaranteed().forEach((r, amount) -> {
            long sum = spec.children().stream().mapToLong(c -> c.guaranteed().getOrDefault(r, 0L)).sum();
            if (sum > amount) {
                throw new InvalidQueueConfigException("the children of " + where + " are guaranteed more " + r
                        + " than " + where + " itself");
            }
        });
        for (QueueSpec child : spec.children()) {
            child.max().forEach((r, amount) -> {
                Long parentMax = spec.max().get(r);
                if (parentMax != null && amount > parentMax) {
                    throw new InvalidQueueConfigException(where + "." + child.name() + ": max " + r
                            + " exceeds the max of " + where);
                }
            });
        }
    }

    private static void checkAmounts(String where, String what, Map<String, Long> amounts) {
        amounts.forEach((r, amount) -> {
            if (amount < 0) {
                throw new InvalidQueueConfigException(where + ": " + what + " " + r + " is negative");
            }
        });
    }

    public boolean enabled() {
        return root != null;
    }

    public Queue root() {
        return root;
    }

    public Queue defaultQueue() {
        return defaultQueue;
    }

    public Queue queue(String fullName) {
        return fullName == null ? null : byName.get(fullName);
    }

    public Collection<Queue> queues() {
        return byName.values();
    }

    public List<Queue> leaves() {
        List<Queue> leaves = new ArrayList<>();
        byName.values().forEach(q -> {
            if (q.isLeaf()) {
                leaves.add(q);
            }
        });
        return leaves;
    }

    /**
     * The leaf queue a pod belongs to (README, Queues): its own queue label or annotation, its
     * namespace's annotation, {@code root.<namespace>}, then the default queue. A name that is not a
     * leaf of this tree is passed over. Null when nothing matches: the pod is outside the queues.
     */
    public Queue leafOf(PodInfo pod, Map<String, Map<String, String>> namespaceAnnotations) {
        if (root == null) {
            return null;
        }
        Queue q = leaf(pod.queueHint());
        if (q != null) {
            return q;
        }
        Map<String, String> annotations = namespaceAnnotations.get(pod.namespace());
        q = leaf(annotations == null ? null : annotations.get(NAMESPACE_QUEUE_ANNOTATION));
        if (q != null) {
            return q;
        }
        q = leaf("root." + pod.namespace());
        return q != null ? q : defaultQueue;
    }

    private Queue leaf(String name) {
        if (name == null || name.isBlank()) {
            return null;
        }
        Queue q = byName.get(qualified(name.trim()));
        return q != null && q.isLeaf() ? q : null;
    }

    private static String qualified(String name) {
        return name.equals("root") || name.startsWith("root.") ? name : "root." + name;
    }
}
