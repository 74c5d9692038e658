package dev.makeroom.core.reschedule;

import dev.makeroom.core.model.PodInfo;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The round's and the last hour's evictions, against the {@link RescheduleSettings.MoveLimits}. */
final class LimitLedger {

    private static final Duration HOUR = Duration.ofHours(1);

    private final RescheduleSettings.MoveLimits limits;
    private int round;
    private int hour;
    private final Map<String, Integer> byNode = new HashMap<>();
    private final Map<String, Integer> byNamespace = new HashMap<>();
    private final Map<String, Integer> byController = new HashMap<>();
    private final List<PastEviction> lastHour = new ArrayList<>();

    LimitLedger(RescheduleSettings.MoveLimits limits, List<PastEviction> history, Instant now) {
        this.limits = limits;
        Instant since = now.minus(HOUR);
        for (PastEviction past : history) {
            if (past.at().isAfter(since)) {
                lastHour.add(past);
                hour++;
                byNamespace.merge(past.namespace(), 1, Integer::sum);
                byController.merge(past.controllerUid(), 1, Integer::sum);
            }
        }
    }

    /** The evictions of the last hour, as the limits count them. */
    List<PastEviction> lastHour() {
        return lastHour;
    }

    /** Which limit moving {@code pod} off {@code node} would pass, or null when it is within all. */
    String exceeded(PodInfo pod, String node) {
        return exceeded(List.of(pod), node);
    }

    /** Which limit moving all of {@code pods} off {@code node} would pass, or null when within all. */
    String exceeded(List<PodInfo> pods, String node) {
        int n = pods.size();
        if (round + n > limits.perRound()) {
            return "the round's limit of " + limits.perRound() + " evictions";
        }
        if (byNode.getOrDefault(node, 0) + n > limits.perNodePerRound()) {
            return "the limit of " + limits.perNodePerRound() + " evictions per node per round";
        }
        if (hour + n > limits.clusterPerHour()) {
            return "the cluster's limit of " + limits.clusterPerHour() + " evictions per hour";
        }
        for (int i = 0; i < pods.size(); i++) {
            PodInfo pod = pods.get(i);
            int sameNamespace = 0; // of the set up to this pod: no maps, since the planner asks for every pod it weighs
            int sameController = 0;
            for (int j = 0; j <= i; j++) {
                sameNamespace += pods.get(j).namespace().equals(pod.namespace()) ? 1 : 0;
                sameController += pods.get(j).controller().uid().equals(pod.controller().uid()) ? 1 : 0;
            }
            if (byNamespace.getOrDefault(pod.namespace(), 0) + sameNamespace > limits.perNamespacePerHour()) {
                return "the limit of " + limits.perNamespacePerHour() + " evictions per namespace per hour";
            }
            if (byController.getOrDefault(pod.controller().uid(), 0) + sameController > limits.perControllerPerHour()) {
                return "the limit of " + limits.perControllerPerHour() + " evictions per controller per hour";
            }
        }
        return null;
    }

    /**
     * Which limit of the hour (cluster, namespace, controller) moving all of {@code pods} would pass, or
     * null: whether they could all go within the hour, over as many rounds as the per-round limits take.
     */
    String exceededWithinHour(List<PodInfo> pods) {
        if (hour + pods.size() > limits.clusterPerHour()) {
            return "the cluster's limit of " + limits.clusterPerHour() + " evictions per hour";
        }
        Map<String, Integer> namespaces = new HashMap<>();
        Map<String, Integer> controllers = new HashMap<>();
        for (PodInfo pod : pods) {
            if (byNamespace.getOrDefault(pod.namespace(), 0) + namespaces.merge(pod.namespace(), 1, Integer::sum)
                    > limits.perNamespacePerHour()) {
                return "the limit of " + limits.perNamespacePerHour() + " evictions per namespace per hour";
            }
            if (byController.getOrDefault(pod.controller().uid(), 0)
                    + controllers.merge(pod.controller().uid(), 1, Integer::sum) > limits.perControllerPerHour()) {
                return "the limit of " + limits.perControllerPerHour() + " evictions per controller per hour";
            }
        }
        return null;
    }

    void record(PodInfo pod, String node) {
        round++;
        hour++;
        byNode.merge(node, 1, Integer::sum);
        byNamespace.merge(pod.namespace(), 1, Integer::sum);
        byController.merge(pod.controller().uid(), 1, Integer::sum);
    }

    /** Whether no more pods may leave {@code node} this round (its own limit, or the round's). */
    boolean nodeFull(String node) {
        return roundFull() || byNode.getOrDefault(node, 0) >= limits.perNodePerRound();
    }

    /** How many more evictions the round's and the cluster's hourly limits allow. */
    int remaining() {
        return Math.max(0, Math.min(limits.perRound() - round, limits.clusterPerHour() - hour));
    }

    boolean roundFull() {
        return round >= limits.perRound() || hour >= limits.clusterPerHour();
    }
}
