package dev.makeroom.core.model;

/** A node taint; {@code effect} as Kubernetes spells it: NoSchedule, PreferNoSchedule or NoExecute. */
public record Taint(String key, String value, String effect) {

    /** What the node's {@code spec.unschedulable} means to the scheduler (its NodeUnschedulable filter). */
    public static final Taint UNSCHEDULABLE = new Taint("node.kubernetes.io/unschedulable", null, "NoSchedule");

    /** Whether the scheduler keeps pods that do not tolerate it off the node (PreferNoSchedule only scores). */
    public boolean repels() {
        return "NoSchedule".equals(effect) || "NoExecute".equals(effect);
    }
}
