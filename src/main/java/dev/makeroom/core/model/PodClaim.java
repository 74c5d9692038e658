package dev.makeroom.core.model;

/**
 * One of a pod's resource claims ({@code spec.resourceClaims}): its name in the pod, and the
 * ResourceClaim in the pod's namespace that serves it ({@code claimName}): the one it names, or the
 * one made from its template as {@code status.resourceClaimStatuses} says; null while that claim is
 * not made yet (the scheduler does not try the pod until it is).
 */
public record PodClaim(String name, String claimName) {
}
