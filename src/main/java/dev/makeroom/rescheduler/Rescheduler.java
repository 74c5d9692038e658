package dev.makeroom.rescheduler;

import dev.makeroom.cluster.Leadership;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.ClusterView;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.rounds.Evictor;
import dev.makeroom.core.rounds.NodeTaints;
import dev.makeroom.core.rounds.PastEviction;
import dev.makeroom.core.rounds.PreemptionCheck;
import dev.makeroom.core.rounds.ReschedulePlan;
import dev.makeroom.core.rounds.RescheduleSettings;
import dev.makeroom.core.rounds.RoomHold;
import dev.makeroom.core.rounds.RoundInputs;
import dev.makeroom.core.rounds.planner.ReschedulePlanner;
import dev.makeroom.observability.DurationText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The rescheduler's rounds: every {@code interval}, on its own thread (never a request's), only while
 * the view is ready, only on the leader and only while this replica serves the extender verbs and
 * reports Ready ({@link ActingGate}: its moves rely on those verbs), plan on the live snapshot and, in {@code evict} mode,
 * carry the plan out ({@link PlanCarrier}: evictions one move at a time, room and landing holds, drains,
 * backoffs). Room made for a pending pod is reserved on its node before the first of its evictions
 * ({@link RoomsUnderway}), and each move's target holds its landing (room for the moved pod's
 * replacement, which the extender steers there) before its eviction; landings served or out of time
 * are removed, also between rounds (every 2 s), and reported with the next round. The consolidate
 * policy's nodes are tainted before their evictions, marked empty once emptied, and untainted when
 * released or abandoned ({@link DrainsUnderway}). Keeps the last rounds; the carrier keeps an hour of
 * evictions (for the limits) and the backoffs. All of it lives in this replica, so a new leader starts
 * its hour, and the backoffs, afresh (a drain's state is the node's taint, which it reads). Also
 * answers the debug API's dry runs: a plan made now, changing nothing.
 */
public final class Rescheduler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Rescheduler.class);
    private static final int KEPT_ROUNDS = 20;
    private static final String NOT_READY = "the cluster view is not ready";
    private static final String NOT_ACTING = "not acting: ";
    private static final Duration READY_POLL = Duration.ofSeconds(1);
    private static final Duration DEFAULT_LANDING_FOR = Duration.ofMinutes(2);
    // how often landings are looked at between rounds: a replacement bound and then deleted (a scale-down)
    // would make its landing hold again until it runs out, so a served landing is removed soon after
    private static final Duration LANDING_CHECK = Duration.ofSeconds(2);
    private static final Duration UNSTARTED_INTERVAL = Duration.ofMinutes(1); // rounds driven by hand (tests, no loop)

    private final ReschedulerMode mode;
    private final ClusterView view;
    private final ReschedulerConfigService config;
    private final PlanCarrier carrier;
    private final Leadership leadership;
    private final Clock clock;
    private final LongSupplier nanos;
    private final ReschedulerMetrics metrics;
    private final PreemptionCheck preemption;
    private final List<AutoCloseable> parts;
    private final ActingGate gate; // the replica's own gate, shut for good once makeroom is stopping
    private volatile boolean stopping;
    private volatile ActingGate.Shut lastShut; // what the log last said, so a change is logged once
    private final Deque<RoundReport> rounds = new ArrayDeque<>();
    private ScheduledExecutorService loop;
    private Duration interval;

    public Rescheduler(ReschedulerMode mode, ClusterView view, ReschedulerConfigService config, Evictor evictor,
                       RoomHold hold, NodeTaints taints, Leadership leadership, Clock clock, LongSupplier nanos,
                       ReschedulerMetrics metrics,
                       PreemptionCheck preemption, List<AutoCloseable> parts) {
        this(mode, view, config, evictor, hold, taints, leadership, clock, nanos, metrics, preemption, parts,
                DEFAULT_LANDING_FOR, ActingGate.OPEN); // rounds driven by hand: no extender port to wait for
    }

    /**
     * {@code landingFor}: how long a moved pod's replacement is steered to where its move was proven;
     * {@code gate}: whether this replica may act now (it serves the extender verbs and is ready).
     */
    public Rescheduler(ReschedulerMode mode, ClusterView view, ReschedulerConfigService config, Evictor evictor,
                       RoomHold hold, NodeTaints taints, Leadership leadership, Clock clock, LongSupplier nanos,
                       ReschedulerMetrics metrics,
                       PreemptionCheck preemption, List<AutoCloseable> parts, Duration landingFor, ActingGate gate) {
        this.gate = () -> stopping ? Optional.of(new ActingGate.Shut("makeroom is shutting down")) : gate.shut();
        this.carrier = new PlanCarrier(mode, evictor, hold, taints, leadership, this.gate, metrics, landingFor);
        this.mode = mode;
        this.view = view;
        this.config = config;
        this.leadership = leadership;
        this.clock = clock;
        this.nanos = nanos;
        this.metrics = metrics;
        this.preemption = preemption;
        this.parts = List.copyOf(parts);
    }

    /** Runs a round every {@code interval}, the first at once (and, while the view syncs, again each second). */
    public Rescheduler start(Duration interval) {
        loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "makeroom-rescheduler");
            t.setDaemon(true);
            return t;
        });
        this.interval = interval;
        loop.execute(this::tick);
        if (mode == ReschedulerMode.EVICT) {
            long every = Math.min(interval.toMillis(), LANDING_CHECK.toMillis());
            loop.scheduleWithFixedDelay(this::closeLandingsBetweenRounds, every, every, TimeUnit.MILLISECONDS);
        }
        log.info("rescheduler: on, {} mode, a round every {}", mode.name().toLowerCase().replace('_', '-'),
                DurationText.of(interval));
        return this;
    }

    /**
     * A round, then the next: one interval later, or, while the view is still syncing or this replica
     * does not serve yet, a second later (at most an interval), so the first round that can act runs
     * right after it can.
     */
    private void tick() {
        RoundReport report = null;
        try {
            report = round();
        } catch (RuntimeException e) {
            log.error("rescheduler round failed; trying again next round", e);
        }
        // waiting for the view or for this replica to serve: the first round that can act runs soon after
        boolean waiting = report != null && report.idle() != null
                && (NOT_READY.equals(report.idle()) || report.idle().startsWith(NOT_ACTING));
        long delay = waiting ? Math.min(interval.toMillis(), READY_POLL.toMillis()) : interval.toMillis();
        try {
            loop.schedule(this::tick, delay, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // closed meanwhile: no more rounds
        }
    }

    /** Closes the landings served or out of time since the last round, as the leader (reported with the next round). */
    private synchronized void closeLandingsBetweenRounds() {
        try {
            if (!view.ready() || !leadership.leading() || gate.shut().isPresent()) {
                return;
            }
            carrier.closeLandingsBetweenRounds(view.snapshot(), clock.instant());
        } catch (RuntimeException e) {
            log.warn("rescheduler: could not look at the landings; the next round does", e);
        }
    }

    /** One round, as the loop runs it. */
    public synchronized RoundReport round() {
        Instant now = clock.instant();
        RoundReport report;
        if (!view.ready()) {
            report = RoundReport.idle(now, mode, NOT_READY);
        } else if (!leadership.leading()) {
            report = RoundReport.idle(now, mode, "another replica leads");
        } else {
            Optional<ActingGate.Shut> shut = acting();
            report = shut.isPresent() ? RoundReport.idle(now, mode, NOT_ACTING + shut.get().why())
                    : act(view.snapshot(), now);
        }
        metrics.round(report);
        RoundReport newest = rounds.peekFirst();
        if (newest != null && newest.moves().isEmpty() && newest.skipped().isEmpty()) {
            rounds.removeFirst(); // a quiet round is kept only until the next: quiet rounds do not push out the rest
        }
        rounds.addFirst(report);
        while (rounds.size() > KEPT_ROUNDS) {
            rounds.removeLast();
        }
        return report;
    }

    /** Why this replica must not act now (empty: it may), logged when that changes. */
    private Optional<ActingGate.Shut> acting() {
        Optional<ActingGate.Shut> shut = gate.shut();
        ActingGate.Shut was = lastShut;
        if (shut.isPresent() && !shut.get().equals(was)) {
            log.info("rescheduler: not acting: {}", shut.get().why());
        } else if (shut.isEmpty() && was != null) {
            log.info("rescheduler: acting: this replica serves the extender verbs and reports ready");
        }
        lastShut = shut.orElse(null);
        return shut;
    }

    /** Why this replica does not act now, as the debug API shows it; empty when it may act. */
    public Optional<ActingGate.Shut> notActing() {
        return gate.shut();
    }

    /**
     * Stops acting before makeroom stops serving: no round, landing or eviction begins after this, and
     * it returns once a round under way has ended (its remaining moves are not sent).
     */
    public void stopActing() {
        boolean first = !stopping; // called once per closing context (the management port's is a child)
        stopping = true;
        synchronized (this) { // the round under way holds this lock; its next move sees the gate shut
            if (first && loop != null) {
                log.info("rescheduler: stopped acting (makeroom is shutting down)");
            }
        }
    }

    /** What a round would do now, changing nothing (the debug API's dry run). */
    public RoundReport planNow() {
        return dryRun(null, null);
    }

    /**
     * What a round would do now under {@code settings} instead of the document in force, changing
     * nothing: a policies document tried before it is deployed.
     */
    public RoundReport planNowWith(RescheduleSettings settings) {
        return dryRun(null, settings);
    }

    /**
     * What defragmentation would do now for the pending pod {@code namespace/name}, changing nothing,
     * however long it has waited; null when makeroom's view has no such pending pod.
     */
    public RoundReport planFor(String namespace, String name) {
        ClusterSnapshot snapshot = view.snapshot();
        PodInfo pending = snapshot.pods().stream().filter(p -> p.namespace().equals(namespace)
                && p.name().equals(name) && !p.isAssigned()).findFirst().orElse(null);
        return pending == null ? null : dryRun(pending, null);
    }

    private RoundReport dryRun(PodInfo pending, RescheduleSettings tried) {
        Instant now = clock.instant();
        if (!view.ready()) {
            return RoundReport.idle(now, ReschedulerMode.DRY_RUN, NOT_READY);
        }
        long start = nanos.getAsLong();
        ReschedulePlan plan = plan(view.snapshot(), now, pending, tried);
        return new RoundReport(now, ReschedulerMode.DRY_RUN, null, plan.ran(),
                plan.moves().stream().map(m -> new RoundReport.MoveResult(m, RoundReport.MoveOutcome.PLANNED, null)).toList(),
                plan.skipped(), PlanCarrier.plannedRooms(plan), PlanCarrier.plannedDrains(plan), List.of(),
                nanos.getAsLong() - start);
    }

    private synchronized ReschedulePlan plan(ClusterSnapshot snapshot, Instant now, PodInfo onlyFor,
                                             RescheduleSettings tried) {
        List<PastEviction> history = carrier.lastHour(now);
        RescheduleSettings settings = tried != null ? tried : config.state().settings();
        if (onlyFor == null) {
            return ReschedulePlanner.plan(new RoundInputs(snapshot, settings, history, now, preemption, nanos,
                    carrier.heldBackPods(), carrier.heldBackNodes()));
        }
        // the question about one pod: what defragmentation would do for it, whatever the backoffs say now
        return ReschedulePlanner.roomFor(new RoundInputs(snapshot, settings, history, now, preemption, nanos, Set.of(),
                Set.of()), onlyFor);
    }

    /** Plans a round on {@code snapshot} and carries it out ({@link PlanCarrier}). */
    private RoundReport act(ClusterSnapshot snapshot, Instant now) {
        long start = nanos.getAsLong();
        ReschedulePlan plan = plan(snapshot, now, null, null);
        PlanCarrier.Carried carried = carrier.carryOut(plan, snapshot, now,
                backoffRounds(config.state().settings().refusalBackoffMax()));
        return new RoundReport(now, mode, null, plan.ran(), carried.moves(), plan.skipped(), carried.rooms(),
                carried.drains(), carried.landings(), nanos.getAsLong() - start);
    }

    /** The longest backoff in rounds: {@code max} over the rounds' interval, at least one round. */
    private int backoffRounds(Duration max) {
        long every = Math.max(1, (interval == null ? UNSTARTED_INTERVAL : interval).toMillis());
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, max.toMillis() / every));
    }

    /** Whether rounds run (makeroom.rescheduler.enabled). */
    public boolean running() {
        return loop != null;
    }

    public ReschedulerMode mode() {
        return mode;
    }

    /** The last rounds, newest first. */
    public synchronized List<RoundReport> rounds() {
        return List.copyOf(rounds);
    }

    public boolean leading() {
        return leadership.leading();
    }

    /** The acting replica's name, where the election says (null for a process alone). */
    public String leader() {
        return leadership.leader();
    }

    public ReschedulerConfigState configState() {
        return config.state();
    }

    /** Stops the rounds, then what they used (the ConfigMap watch, the lease). */
    @Override
    public void close() {
        if (loop != null) {
            loop.shutdownNow();
        }
        for (AutoCloseable part : parts) {
            try {
                part.close();
            } catch (Exception e) {
                log.warn("rescheduler: closing {} failed: {}", part.getClass().getSimpleName(), e.toString());
            }
        }
    }
}
