package dev.makeroom.core.rounds;

import java.time.Duration;
import java.util.Map;

/**
 * What the rescheduler may do: the guards every policy keeps, then each policy's own settings
 * ({@link PolicySettings}, one record per policy, in the policy's files). Guards: {@code limits}, the
 * most evictions per round, node, namespace, controller and hour; {@code aggressiveness}, how much of
 * the disruption budgets the rounds may spend; {@code scope}, which pods any policy may move;
 * {@code allowLocalStorage}, whether pods with emptyDir or hostPath volumes may move (their data is
 * lost); {@code refusalBackoffMax}, the longest a pod the Eviction API refused stays out of the plans
 * (the backoff doubles per refusal up to it). {@code policies} holds one settings record per
 * registered policy, by its type.
 */
public record RescheduleSettings(MoveLimits limits, Aggressiveness aggressiveness, Scope scope,
                                 boolean allowLocalStorage, Duration refusalBackoffMax,
                                 Map<Class<?>, PolicySettings> policies) {

    /** The longest a pod the Eviction API refused is held back, where the document does not say. */
    public static final Duration REFUSAL_BACKOFF_MAX = Duration.ofHours(1);

    public RescheduleSettings {
        policies = Map.copyOf(policies);
    }

    /** The settings of the policy whose settings are of {@code type}. */
    public <S extends PolicySettings> S policy(Class<S> type) {
        PolicySettings settings = policies.get(type);
        if (settings == null) {
            throw new IllegalArgumentException("no " + type.getSimpleName() + " among the settings");
        }
        return type.cast(settings);
    }

    /**
     * The most evictions per round, per node per round, per namespace and per controller in any hour
     * (the proposal's "one disruption per hour across the pods of a Service"), and cluster-wide per hour.
     */
    public record MoveLimits(int perRound, int perNodePerRound, int perNamespacePerHour, int perControllerPerHour,
                             int clusterPerHour) {
    }
}
