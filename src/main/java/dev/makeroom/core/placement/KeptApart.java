package dev.makeroom.core.placement;

import dev.makeroom.core.model.PodInfo;

/**
 * A bound pod that required anti-affinity keeps apart from the pod asked about, in one of a node's
 * topology domains: by a term of the asked pod ({@code byAskedPod}) or by a term of its own, of the
 * given topology key. What preemption must evict, or cannot, for the pod to fit there.
 */
public record KeptApart(PodInfo pod, String topologyKey, boolean byAskedPod) {
}
