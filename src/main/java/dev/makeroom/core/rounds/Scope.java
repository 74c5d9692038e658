package dev.makeroom.core.rounds;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Which running pods the rescheduler may move at all, as the descheduler's evictor scopes its plugins:
 * namespaces included (empty: all) and excluded, a pod label selector, the label selector of the nodes
 * they run on, {@code priorityThreshold} (a pod at or above it never moves; null: none), the least age
 * ({@code minPodAge}) and the fewest pods of its controller ({@code minReplicas}: a controller with
 * fewer is left alone, so a single replica is never taken down to move it). A pod out of scope still
 * counts where it runs; it is only never moved.
 */
public record Scope(Set<String> includeNamespaces, Set<String> excludeNamespaces, LabelSelector pods,
                    LabelSelector nodes, Integer priorityThreshold, Duration minPodAge, int minReplicas) {

    /** Whether a pod is in scope: {@link #IN}, or {@link Out} with the rule that leaves it out, in words. */
    public sealed interface Verdict permits In, Out {
        default boolean in() {
            return this instanceof In;
        }
    }

    public record In() implements Verdict {
    }

    public static final In IN = new In();

    /** The scope's rules, in the order they are asked. */
    public enum Rule { INCLUDED_NAMESPACES, EXCLUDED_NAMESPACES, POD_SELECTOR, NODE_SELECTOR, PRIORITY_THRESHOLD,
        MIN_POD_AGE, MIN_REPLICAS }

    public record Out(Rule rule, String text) implements Verdict {
    }

    /** Every pod. */
    public static final Scope ALL = new Scope(Set.of(), Set.of(), LabelSelector.EMPTY, LabelSelector.EMPTY, null,
            Duration.ZERO, 0);

    public Scope {
        includeNamespaces = Set.copyOf(includeNamespaces);
        excludeNamespaces = Set.copyOf(excludeNamespaces);
    }

    /** The scope asked of one snapshot at one time: controllers' pods counted once. */
    public Check in(ClusterSnapshot snapshot, Instant now) {
        return new Check(snapshot, now);
    }

    /** Scope for one round. */
    public final class Check {
        private final ClusterSnapshot snapshot;
        private final Instant now;
        private Map<String, Integer> replicas; // controller uid -> its pods in the snapshot, counted on first need

        private Check(ClusterSnapshot snapshot, Instant now) {
            this.snapshot = snapshot;
            this.now = now;
        }

        /** Whether {@code pod} may be moved, or which rule leaves it out. */
        public Verdict of(PodInfo pod) {
            if (!includeNamespaces.isEmpty() && !includeNamespaces.contains(pod.namespace())) {
                return new Out(Rule.INCLUDED_NAMESPACES, "namespace " + pod.namespace()
                        + " is not among the scope's namespaces");
            }
            if (excludeNamespaces.contains(pod.namespace())) {
                return new Out(Rule.EXCLUDED_NAMESPACES, "namespace " + pod.namespace() + " is excluded from the scope");
            }
            if (!pods.matches(pod.labels())) {
                return new Out(Rule.POD_SELECTOR, "its labels do not match the scope's pod selector");
            }
            NodeInfo node = pod.nodeName() == null ? null : snapshot.node(pod.nodeName());
            if (!nodes.isEmpty() && (node == null || !nodes.matches(node.labels(), node.name()))) {
                return new Out(Rule.NODE_SELECTOR, "its node does not match the scope's node selector");
            }
            if (priorityThreshold != null && pod.priority() >= priorityThreshold) {
                return new Out(Rule.PRIORITY_THRESHOLD, "priority " + pod.priority()
                        + " is at or above the scope's priorityThreshold " + priorityThreshold);
            }
            Instant born = pod.creationTime() != null ? pod.creationTime() : pod.startTime();
            if (born != null && !minPodAge.isZero() && born.plus(minPodAge).isAfter(now)) {
                return new Out(Rule.MIN_POD_AGE, "younger than the scope's minPodAge " + minPodAge);
            }
            if (minReplicas > 1 && replicasOf(pod.controller()) < minReplicas) {
                return new Out(Rule.MIN_REPLICAS, "its controller has " + replicasOf(pod.controller())
                        + " pods, fewer than the scope's minReplicas " + minReplicas);
            }
            return IN;
        }

        private int replicasOf(OwnerRef controller) {
            if (controller == null) {
                return 1;
            }
            if (replicas == null) {
                replicas = new HashMap<>();
                for (PodInfo p : snapshot.pods()) {
                    if (p.controller() != null && p.isAssigned() && !p.terminating()) {
                        replicas.merge(p.controller().uid(), 1, Integer::sum);
                    }
                }
            }
            return replicas.getOrDefault(controller.uid(), 0);
        }
    }
}
