package dev.makeroom.core.rounds;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.rounds.planner.ReschedulePlanner;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * A round as most tests and benchmarks plan one: preemption places no pending pod, the search's budget
 * runs on {@link System#nanoTime}, and nothing is held back. A test about any of those builds its own
 * {@link RoundInputs}.
 */
public final class Rounds {

    private Rounds() {
    }

    public static RoundInputs inputs(ClusterSnapshot snapshot, RescheduleSettings settings, List<PastEviction> history,
                                     Instant now) {
        return new RoundInputs(snapshot, settings, history, now, PreemptionCheck.NEVER, System::nanoTime, Set.of(),
                Set.of());
    }

    public static ReschedulePlan plan(ClusterSnapshot snapshot, RescheduleSettings settings, List<PastEviction> history,
                                      Instant now) {
        return ReschedulePlanner.plan(inputs(snapshot, settings, history, now));
    }
}
