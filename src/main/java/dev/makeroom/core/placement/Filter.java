package dev.makeroom.core.placement;

/**
 * The filters a placement passes, in the order the kube-scheduler's default profile runs them (then
 * makeroom's own): the first that fails decides the node's answer. The scheduler's NodeName filter has
 * no entry: a pod that names its node is never scheduled.
 */
public enum Filter {
    NODE_UNSCHEDULABLE("NodeUnschedulable"),
    TAINT_TOLERATION("TaintToleration"),
    NODE_AFFINITY("NodeAffinity"),
    NODE_PORTS("NodePorts"),
    NODE_RESOURCES_FIT("NodeResourcesFit"),
    /** The volume filters and whatever else the pod asks that makeroom does not model: always unknown. */
    UNMODELLED("volume filters"),
    POD_TOPOLOGY_SPREAD("PodTopologySpread"),
    INTER_POD_AFFINITY("InterPodAffinity"),
    /** Dynamic resource allocation: the pod's claims must be allocatable on the node (runs after the others). */
    DYNAMIC_RESOURCES("DynamicResources"),
    /** makeroom's: room held for a pending pod of at least this pod's priority. */
    RESERVATION("makeroom reservation"),
    /** makeroom's: the pod's queue, or an ancestor, would go over its max. */
    QUEUE("makeroom queue");

    private final String plugin;

    Filter(String plugin) {
        this.plugin = plugin;
    }

    /** The scheduler plugin's name (or makeroom's filter) as operators know it. */
    public String plugin() {
        return plugin;
    }
}
