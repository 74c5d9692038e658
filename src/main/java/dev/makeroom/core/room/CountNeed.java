package dev.makeroom.core.room;

import dev.makeroom.core.model.PodInfo;

import java.util.function.Predicate;

/**
 * A requirement the victim search covers like a resource: at least {@code need} victims that
 * {@code counts}. Topology spread becomes one: so many of the node's matching pods must go.
 */
public record CountNeed(String name, long need, Predicate<PodInfo> counts) {
}
