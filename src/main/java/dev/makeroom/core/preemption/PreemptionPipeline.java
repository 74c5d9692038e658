package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.placement.PodPlacement;
import dev.makeroom.core.placement.SnapshotState;
import dev.makeroom.core.room.QueueRules;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Every preemption makeroom decides, from the pending pod to what is answered, held and announced. The
 * extender's preempt, the warm-up, {@code /debug/simulate}, {@code --why}, the page and defragmentation's
 * check all come here, so they cannot differ. In the order the scheduler's own Evaluator reads:
 * <ol>
 *   <li><b>in flight</b>: a pod whose earlier preemption is still terminating its victims gets no new
 *       ones ({@link InFlightPreemption} from the cluster, {@link PreemptionsInFlight} for what the
 *       cluster does not show yet);</li>
 *   <li><b>room makeroom holds idle</b>: a node kept empty that the pod fits on is given back instead
 *       of evicting anyone ({@link HeldRoomRelease}, decision {@link DecisionOutcome#RELEASE});</li>
 *   <li><b>eligibility, queues and the exact search</b>: the engine, under the pod's queue laws
 *       ({@link PreemptionEngine});</li>
 *   <li><b>the gang's start</b>: victims for a gang member only when the whole gang can start
 *       ({@link GangStart});</li>
 *   <li><b>what to hold and announce</b>: the rooms found for the gang's other members, the node to
 *       release. The plan says them; the caller that acts (the extender's preempt) writes them, the
 *       others (simulate, the warm-up) only read them.</li>
 * </ol>
 */
public final class PreemptionPipeline {

    /**
     * One question: {@code pod} pending on {@code snapshot} at {@code now}, {@code candidates} the
     * nodes the scheduler offers (with the victims it named), {@code rules} its queue laws.
     */
    public record Request(ClusterSnapshot snapshot, PodInfo pod, List<Candidate> candidates, QueueRules rules,
                          Instant now) {
        public Request {
            candidates = List.copyOf(candidates);
        }
    }

    /**
     * The decision, and what acting on it takes: the kept node to put back into service (with
     * {@link DecisionOutcome#RELEASE}), and the rooms to hold for a gang's other members.
     */
    public record Plan(PreemptionDecision decision, Optional<HeldRoomRelease> release, List<GangStart.Room> holds) {
        public Plan {
            holds = List.copyOf(holds);
        }
    }

    private final PreemptionEngine engine;
    private final PreemptionsInFlight remembered;
    private final HeldRooms held;
    private final LongSupplier nanoClock;

    /**
     * @param remembered this replica's preemptions in flight, for what the cluster does not show yet
     * @param held       where held room is given back, and what was given back lately
     */
    public PreemptionPipeline(PreemptionEngine engine, PreemptionsInFlight remembered, HeldRooms held,
                              LongSupplier nanoClock) {
        this.engine = engine;
        this.remembered = remembered;
        this.held = held;
        this.nanoClock = nanoClock;
    }

    /** A pipeline with no replica's memory: what the cluster shows only (an offline dump, a test). */
    public static PreemptionPipeline of(PreemptionEngine engine) {
        return new PreemptionPipeline(engine, new PreemptionsInFlight(), HeldRooms.NONE, System::nanoTime);
    }

    public PreemptionEngine engine() {
        return engine;
    }

    /** This pipeline with another engine (e.g. one that answers every node, for {@code --why}). */
    public PreemptionPipeline with(PreemptionEngine other) {
        return new PreemptionPipeline(other, remembered, held, nanoClock);
    }

    public Plan decide(Request request) {
        return decide(request, null);
    }

    /**
     * As above, after the placement engine has been asked of the same pod on the same snapshot
     * ({@code asked}, reused; null when it was not).
     */
    public Plan decide(Request request, PodPlacement asked) {
        long start = nanoClock.getAsLong();
        ClusterSnapshot snapshot = request.snapshot();
        PodInfo pod = request.pod();
        // 1. in flight
        Optional<PreemptionsInFlight.InFlight> inFlight = InFlightPreemption.of(snapshot, pod)
                .or(() -> Optional.ofNullable(remembered.of(snapshot, pod, request.now())));
        if (inFlight.isPresent()) {
            return new Plan(PreemptionDecision.notEligible(pod.ref(), inFlight.get().describe(),
                    engine.settings().strategy(), nanoClock.getAsLong() - start), Optional.empty(), List.of());
        }
        // 2. room makeroom holds idle
        Supplier<PodPlacement> placement = asked != null ? () -> asked
                : () -> PodPlacement.of(new SnapshotState(snapshot, request.now()), pod);
        Optional<HeldRoomRelease> release = HeldRoomRelease.find(snapshot, placement, held.givenBack());
        if (release.isPresent()) {
            return new Plan(PreemptionDecision.released(pod.ref(), release.get().describe(), engine.settings().strategy(),
                    nanoClock.getAsLong() - start), release, List.of());
        }
        // 3. eligibility, queues, the exact search
        PreemptionDecision searched = engine.decide(snapshot, pod, request.candidates(), request.rules(), asked);
        // 4. the gang's start; 5. what to hold
        GangStart.Checked checked = GangStart.check(engine, snapshot, pod, searched, request.rules(), request.now());
        return new Plan(checked.decision(), Optional.empty(), checked.rooms());
    }
}
