package dev.makeroom.core.model;

/** Kubernetes QoS class; the declaration order is the order in which victims are preferred. */
public enum QosClass {
    BEST_EFFORT, BURSTABLE, GUARANTEED
}
