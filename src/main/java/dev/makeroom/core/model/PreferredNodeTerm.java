package dev.makeroom.core.model;

/** A preferred node affinity term: nodes whose labels match {@code selector} score {@code weight} more. */
public record PreferredNodeTerm(int weight, LabelSelector selector) {
}
