package dev.makeroom.core.model;

/** A pod's identity as people say it. */
public record PodRef(String namespace, String name, String uid) {
    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
