package dev.makeroom.core.rounds;

import dev.makeroom.core.model.PodInfo;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The round's and the last hour's evictions, against the {@link RescheduleSettings.MoveLimits}. */
public final class LimitLedger {

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
    public List<PastEviction> lastHour() {
        return lastHour;
    }

    /** Whether moving {@code pod} off {@code node} stays within every limit, or which it would pass. */
    public LimitCheck exceeded(PodInfo pod, String node) {
        return exceeded(List.of(pod), node);
    }

    /** Whether moving all of {@code pods} off {@code node} stays within every limit, or which it would pass. */
    public LimitCheck exceeded(List<PodInfo> pods, String node) {
        int n = pods.size();
        if (round + n > limits.perRound()) {
            return new LimitCheck.Passed(LimitCheck.Limit.PER_ROUND, limits.perRound());
        }
        if (byNode.getOrDefault(node, 0) + n > limits.perNodePerRound()) {
            return new LimitCheck.Passed(LimitCheck.Limit.PER_NODE_PER_ROUND, limits.perNodePerRound());
        }
        if (hour + n > limits.clusterPerHour()) {
            return new LimitCheck.Passed(LimitCheck.Limit.CLUSTER_PER_HOUR, limits.clusterPerHour());
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
                return new LimitCheck.Passed(LimitCheck.Limit.PER_NAMESPACE_PER_HOUR, limits.perNamespacePerHour());
            }
            if (byController.getOrDefault(pod.controller().uid(), 0) + sameController > limits.perControllerPerHour()) {
                return new LimitCheck.Passed(LimitCheck.Limit.PER_CONTROLLER_PER_HOUR, limits.perControllerPerHour());
            }
        }
        return LimitCheck.WITHIN;
    }

    /**
     * Whether all of {@code pods} could go within the hour, over as many rounds as the per-round limits
     * take, or which limit of the hour (cluster, namespace, controller) they would pass.
     */
    public LimitCheck exceededWithinHour(List<PodInfo> pods) {
        if (hour + pods.size() > limits.clusterPerHour()) {
            return new LimitCheck.Passed(LimitCheck.Limit.CLUSTER_PER_HOUR, limits.clusterPerHour());
        }
        Map<String, Integer> namespaces = new HashMap<>();
        Map<String, Integer> controllers = new HashMap<>();
        for (PodInfo pod : pods) {
            if (byNamespace.getOrDefault(pod.namespace(), 0) + namespaces.merge(pod.namespace(), 1, Integer::sum)
                    > limits.perNamespacePerHour()) {
                return new LimitCheck.Passed(LimitCheck.Limit.PER_NAMESPACE_PER_HOUR, limits.perNamespacePerHour());
            }
            if (byController.getOrDefault(pod.controller().uid(), 0)
                    + controllers.merge(pod.controller().uid(), 1, Integer::sum) > limits.perControllerPerHour()) {
                return new LimitCheck.Passed(LimitCheck.Limit.PER_CONTROLLER_PER_HOUR, limits.perControllerPerHour());
            }
        }
        return LimitCheck.WITHIN;
    }

    public void record(PodInfo pod, String node) {
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
    public int remaining() {
        return Math.max(0, Math.min(limits.perRound() - round, limits.clusterPerHour() - hour));
    }

    public boolean roundFull() {
        return round >= limits.perRound() || hour >= limits.clusterPerHour();
    }
}
