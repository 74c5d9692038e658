package dev.makeroom.core.model;

/** The controlling owner of a pod. */
public record OwnerRef(String kind, String name, String uid) {
    public boolean isDaemonSet() {
        return "DaemonSet".equals(kind);
    }
}
