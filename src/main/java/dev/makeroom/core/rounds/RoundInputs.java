package dev.makeroom.core.rounds;

import dev.makeroom.core.model.ClusterSnapshot;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Everything one rescheduler round plans from, each named by its caller: nothing is defaulted.
 *
 * @param history       the evictions of the last hour, for the limits
 * @param preemption    which pending pods preemption places (defragmentation leaves them to it)
 * @param nanos         the clock of the defragmentation search's budget
 * @param heldBackPods  uids of pods the Eviction API refused lately whose backoff has not run out: not moved
 * @param heldBackNodes nodes the consolidate policy abandoned, or could not start, lately: not tried
 */
public record RoundInputs(ClusterSnapshot snapshot, RescheduleSettings settings, List<PastEviction> history,
                          Instant now, PreemptionCheck preemption, LongSupplier nanos, Set<String> heldBackPods,
                          Set<String> heldBackNodes) {

    public RoundInputs {
        history = List.copyOf(history);
        heldBackPods = Set.copyOf(heldBackPods);
        heldBackNodes = Set.copyOf(heldBackNodes);
    }
}
