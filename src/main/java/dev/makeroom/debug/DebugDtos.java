package dev.makeroom.debug;

import dev.makeroom.core.rounds.ReschedulePolicy;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The debug API's own JSON shapes: core values are never serialised directly. */
final class DebugDtos {

    private DebugDtos() {
    }

    /** An enum constant as the configuration spells it: {@code KUBE_DEFAULT} → {@code kube-default}. */
    static String spelled(Enum<?> constant) {
        return spelled(constant.name());
    }

    static String spelled(ReschedulePolicy policy) {
        return spelled(policy.name());
    }

    private static String spelled(String name) {
        return name.toLowerCase(Locale.ROOT).replace('_', '-');
    }

    record PodRef(String pod, int priority) {
    }

    record NodeOutcome(String node, boolean feasible, String reason, String detail, List<PodRef> victims,
                       Integer numPdbViolations, Map<String, Long> objective, boolean provenOptimal, String unproven,
                       boolean dominated, boolean lastResort, long statesExplored, long micros) {
    }

    /** {@code schedulersPick}: the scheduler's own heuristic over the same candidates, when it names victims. */
    record Decision(String at, String pod, String outcome, String detail, String strategy, boolean provenOptimal,
                    long micros, List<String> answeredNodes, double workLostHours, SchedulersPick schedulersPick,
                    List<NodeOutcome> nodes) {
    }

    /**
     * Where the scheduler's own heuristic would preempt, how many victims of what priorities, added up,
     * and the work they would lose (weighted hours, priced as the answer's {@code workLostHours}).
     */
    record SchedulersPick(String node, int victims, long prioritySum, double workLostHours) {
    }

    /**
     * A node as makeroom sees it; {@code requestedByPriority} splits {@code requested} by the bound pods'
     * priority, and {@code keptEmpty} says the rescheduler's consolidation holds it empty (its taint).
     */
    record NodeSummary(String name, Map<String, String> labels, boolean unschedulable, List<String> taints,
                       boolean keptEmpty, Map<String, Long> allocatable, Map<String, Long> requested,
                       Map<String, Long> free, Map<String, Integer> podsByPriority,
                       Map<String, Map<String, Long>> requestedByPriority, List<PodRef> nominated) {
    }

    record PodDetail(String pod, int priority, String priorityClass, String qos, Map<String, Long> requests,
                     boolean terminating, String queue, String protection) {
    }

    /**
     * A device that can serve the node's pods ({@code driver/pool/device}), its attributes as text, and
     * who holds it: the allocated claims and the pods they are reserved for (empty: free).
     */
    record DeviceDetail(String device, Map<String, String> attributes, List<String> heldBy, List<String> pods) {
    }

    record NodeDetail(NodeSummary node, List<PodDetail> pods, List<DeviceDetail> devices) {
    }

    /** A pod waiting to be scheduled: its priority, requests, queue and the node it is nominated to (null: none). */
    record PendingPod(String pod, int priority, Map<String, Long> requests, String queue, String nominatedNode) {
    }

    record Simulation(String pod, int priority, String queue, String kubernetesVersion, List<String> fitsOn,
                      Map<String, String> doesNotFit, Map<String, String> unresolvable, Map<String, String> unknown,
                      Decision preemption, List<String> gangsBroken) {
    }

    /** The queue configuration in force: where from, what was last rejected, and the tree. */
    record QueueConfig(boolean enabled, String source, String loadedAt, List<String> warnings, String error,
                       String errorAt, String defaultQueue, QueueNode root) {
    }

    /** Amounts in base units (cpu in millicores, memory in bytes), like the node views. */
    /** {@code pending}: its pods waiting (below it too); {@code preempting}: those of them nominated to a node. */
    record QueueNode(String name, String policy, String delay, Map<String, Long> guaranteed, Map<String, Long> max,
                     Map<String, Long> usage, List<String> belowGuarantee, int pending, int preempting,
                     List<QueueNode> children) {
    }

    record Error(String error) {
    }
}
