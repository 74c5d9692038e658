package dev.makeroom.core.model;

/**
 * A preferred pod affinity term ({@code anti} false) or anti-affinity term ({@code anti} true): a node
 * whose domain of the term's topology key holds pods the term selects scores {@code weight} more (less)
 * for each of them, as the scheduler's InterPodAffinity scores.
 */
public record PreferredPodTerm(int weight, PodAffinityTerm term, boolean anti) {

    /** What the term adds to a domain for each selected pod there: its weight, negative for anti-affinity. */
    public int signedWeight() {
        return anti ? -weight : weight;
    }
}
