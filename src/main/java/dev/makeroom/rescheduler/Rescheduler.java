package dev.makeroom.rescheduler;

import dev.makeroom.core.model.ClusterView;
import dev.makeroom.cluster.Leadership;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.rounds.Evictor;
import dev.makeroom.core.rounds.RoomHold;
import dev.makeroom.core.rounds.Move;
import dev.makeroom.core.rounds.NodeTaints;
import dev.makeroom.core.rounds.PastEviction;
import dev.makeroom.core.rounds.PreemptionCheck;
import dev.makeroom.core.rounds.RefusalBackoff;
import dev.makeroom.core.rounds.RescheduleSettings;
import dev.makeroom.core.rounds.ReschedulePlan;
import dev.makeroom.core.rounds.ReschedulePlanner;
import dev.makeroom.core.rounds.RoundInputs;
import dev.makeroom.observability.DurationText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * The rescheduler's rounds: every {@code interval}, on its own thread (never a request's), only while
 * the view is ready and only on the leader, plan on the live snapshot and, in {@code evict} mode,
 * evict what the plan says, one move at a time, then clear its own expired avoid-list entries and
 * ended reservations. Room made for a pending pod is reserved on its node before the first of its
 * evictions ({@link RoomsUnderway}), and each move's target holds its landing (room for the moved pod's
 * replacement, which the extender steers there) before its eviction; landings served or out of time
 * are removed, also between rounds (every 2 s), and reported with the next round. A move the API refused leaves its pod where it was, so a later
 * move that counted on the room it would free is not tried (the next round plans from the cluster as it
 * is); the refused pod is held back from the plans for a backoff that doubles per refusal, up to an
 * hour ({@link RefusalBackoff}), and the policies move their next candidates meanwhile. The consolidate
 * policy's nodes are tainted before their evictions, marked empty once emptied, and untainted when
 * released or abandoned ({@link DrainsUnderway}); a node abandoned or not started is not tried again
 * for a backoff of its own. Keeps the last rounds and an hour of its evictions (for the limits); all of
 * it lives in this replica, so a new leader starts its hour, and the backoffs, afresh (a drain's state
 * is the node's taint, which it reads).
 */
public final class Rescheduler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Rescheduler.class);
    private static final int KEPT_ROUNDS = 20;
    private static final String NOT_READY = "the cluster view is not ready";
    private static final Duration READY_POLL = Duration.ofSeconds(1);
    private static final Duration DEFAULT_LANDING_FOR = Duration.ofMinutes(2);
    // how often landings are looked at between rounds: a replacement bound and then deleted (a scale-down)
    // would make its landing hold again until it runs out, so a served landing is removed soon after
    private static final Duration LANDING_CHECK = Duration.ofSeconds(2);
    private static final Duration UNSTARTED_INTERVAL = Duration.ofMinutes(1); // rounds driven by hand (tests, no loop)

    private final ReschedulerMode mode;
    private final Landings landings;
    private final ClusterView view;
    private final ReschedulerConfigService config;
    private final Evictor evictor;
    private final RoomHold hold;
    private final NodeTaints taints;
    private final Leadership leadership;
    private final Clock clock;
    private final LongSupplier nanos;
    private final ReschedulerMetrics metrics;
    private final PreemptionCheck preemption;
    private final List<AutoCloseable> parts;
    private final Deque<RoundReport> rounds = new ArrayDeque<>();
    private final DrainEvictions drainEvictions = new DrainEvictions();
    private final List<PastEviction> history = new ArrayList<>();
    private final RefusalBackoff backoff = new RefusalBackoff();
    private final RefusalBackoff nodeBackoff = new RefusalBackoff(); // nodes consolidation abandoned or could not start
    private ScheduledExecutorService loop;
    private Duration interval;

    public Rescheduler(ReschedulerMode mode, ClusterView view, ReschedulerConfigService config, Evictor evictor,
                       RoomHold hold, NodeTaints taints, Leadership leadership, Clock clock, LongSupplier nanos,
                       ReschedulerMetrics metrics,
                       PreemptionCheck preemption, List<AutoCloseable> parts) {
        this(mode, view, config, evictor, hold, taints, leadership, clock, nanos, metrics, preemption, parts,
                DEFAULT_LANDING_FOR);
    }

    /** {@code landingFor}: how long a moved pod's replacement is steered to where its move was proven. */
    public Rescheduler(ReschedulerMode mode, ClusterView view, ReschedulerConfigService config, Evictor evictor,
                       RoomHold hold, NodeTaints taints, Leadership leadership, Clock clock, LongSupplier nanos,
                       ReschedulerMetrics metrics,
                       PreemptionCheck preemption, List<AutoCloseable> parts, Duration landingFor) {
        this.landings = new Landings(hold, landingFor);
        this.mode = mode;
        this.view = view;
        this.config = config;
        this.evictor = evictor;
        this.hold = hold;
        this.taints = taints;
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
     * A round, then the next: one interval later, or, while the view is still syncing, a second later
     * (at most an interval), so the first round that can plan runs right after the view is ready.
     */
    private void tick() {
        RoundReport report = null;
        try {
            report = round();
        } catch (RuntimeException e) {
            log.error("rescheduler round failed; trying again next round", e);
        }
        boolean waitingForView = report != null && NOT_READY.equals(report.idle());
        long delay = waitingForView ? Math.min(interval.toMillis(), READY_POLL.toMillis()) : interval.toMillis();
        try {
            loop.schedule(this::tick, delay, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // closed meanwhile: no more rounds
        }
    }

    /** Closes the landings served or out of time since the last round, as the leader (reported with the next round). */
    private synchronized void closeLandingsBetweenRounds() {
        try {
            if (!view.ready() || !leadership.leading()) {
                return;
            }
            ClusterSnapshot snapshot = view.snapshot();
            if (!snapshot.nodesWithReservations().isEmpty()) {
                landings.closeBetweenRounds(snapshot, clock.instant());
            }
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
            report = act(view.snapshot(), now);
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
                plan.skipped(), plan.rooms().stream().map(r -> new RoundReport.RoomResult(r, RoundReport.RoomOutcome.PLANNED, null)).toList(),
                planned(plan), List.of(), nanos.getAsLong() - start);
    }

    private synchronized ReschedulePlan plan(ClusterSnapshot snapshot, Instant now, PodInfo onlyFor,
                                             RescheduleSettings tried) {
        history.removeIf(past -> past.at().isBefore(now.minus(Duration.ofHours(1))));
        RescheduleSettings settings = tried != null ? tried : config.state().settings();
        if (onlyFor == null) {
            return ReschedulePlanner.plan(new RoundInputs(snapshot, settings, history, now, preemption, nanos,
                    backoff.heldBack(), nodeBackoff.heldBack()));
        }
        // the question about one pod: what defragmentation would do for it, whatever the backoffs say now
        return ReschedulePlanner.roomFor(new RoundInputs(snapshot, settings, history, now, preemption, nanos, Set.of(),
                Set.of()), onlyFor);
    }

    private RoundReport act(ClusterSnapshot snapshot, Instant now) {
        long start = nanos.getAsLong();
        ReschedulePlan plan = plan(snapshot, now, null, null);
        RoomsUnderway rooms = new RoomsUnderway(plan.rooms(), hold, snapshot);
        DrainsUnderway drains = new DrainsUnderway(plan.drains(), taints, now);
        if (mode == ReschedulerMode.EVICT) {
            drains.begin();
        }
        List<RoundReport.MoveResult> results = new ArrayList<>();
        // nodes a pod was planned to leave and did not: a later move that lands there counted on its room
        Map<String, String> stayed = new HashMap<>();
        // a gang moving whole: asked once, before its first eviction, whether the API would evict every member
        Map<String, Optional<String>> gangRefusals = new HashMap<>();
        for (Move move : plan.moves()) {
            if (mode == ReschedulerMode.DRY_RUN) {
                results.add(new RoundReport.MoveResult(move, RoundReport.MoveOutcome.PLANNED, null));
                log.info("rescheduler (dry run): would evict {} from {} ({}: {}); expected on {}", move.pod(),
                        move.from(), move.policy(), move.reason(), move.to());
                continue;
            }
            if (stayed.containsKey(move.to())) {
                results.add(new RoundReport.MoveResult(move, RoundReport.MoveOutcome.NOT_TRIED, "it counted on " + stayed.get(move.to())
                        + " leaving " + move.to() + ", which did not happen; planned again next round"));
                continue;
            }
            if (!leadership.leading()) {
                results.add(new RoundReport.MoveResult(move, RoundReport.MoveOutcome.NOT_LEADING, "the lease was lost during the round"));
                stayed.put(move.from(), move.pod().toString());
                continue;
            }
            PodInfo moving = snapshot.pod(move.pod().uid());
            Optional<String> gangRefused = moving == null || moving.gang() == null ? Optional.empty()
                    : gangRefusals.computeIfAbsent(moving.gang().key(), key -> wouldRefuseAMember(plan, snapshot, key));
            if (gangRefused.isPresent()) {
                Evictor.EvictionOutcome refused = new Evictor.EvictionOutcome(
                        Evictor.EvictionOutcome.Result.BLOCKED_BY_BUDGET,
                        "its gang moves whole, and the API would not evict " + gangRefused.get());
                results.add(new RoundReport.MoveResult(move, RoundReport.MoveOutcome.NOT_TRIED, refused.detail()));
                stayed.put(move.from(), move.pod().toString());
                drains.evicted(move, refused); // a drain waiting on it is abandoned, as for a refusal
                continue;
            }
            Optional<NotReady> notReady = rooms.begin(move).or(() -> drains.blocks(move));
            if (notReady.isPresent()) {
                results.add(new RoundReport.MoveResult(move, RoundReport.MoveOutcome.NOT_TRIED, notReady.get().why()));
                stayed.put(move.from(), move.pod().toString());
                continue;
            }
            PodInfo pod = snapshot.pod(move.pod().uid());
            boolean landing = landings.open(pod, move, now);
            Evictor.EvictionOutcome outcome = evictor.evict(pod, move);
            if (landing && outcome.result() != Evictor.EvictionOutcome.Result.EVICTED) {
                hold.release(move.to(), pod.uid()); // nothing moved: nothing to come
            }
            String detail = outcome.result() == Evictor.EvictionOutcome.Result.BLOCKED_BY_BUDGET
                    ? outcome.detail() + ": " + budgetNames(snapshot, pod) : outcome.detail();
            if (outcome.result() == Evictor.EvictionOutcome.Result.BLOCKED_BY_BUDGET
                    || outcome.result() == Evictor.EvictionOutcome.Result.FAILED) {
                stayed.put(move.from(), move.pod().toString());
            }
            rooms.done(move, outcome.result() == Evictor.EvictionOutcome.Result.EVICTED
                    || outcome.result() == Evictor.EvictionOutcome.Result.GONE);
            drains.evicted(move, outcome);
            if (outcome.result() == Evictor.EvictionOutcome.Result.BLOCKED_BY_BUDGET) {
                int rounds = backoff.refused(pod.uid(), backoffRounds(config.state().settings().refusalBackoffMax()));
                log.info("rescheduler: eviction of {} refused ({}); not tried again for {} round{}", pod.ref(), detail,
                        rounds, rounds == 1 ? "" : "s");
            } else if (outcome.result() == Evictor.EvictionOutcome.Result.EVICTED
                    || outcome.result() == Evictor.EvictionOutcome.Result.GONE) {
                backoff.forget(pod.uid());
            }
            if (outcome.result() == Evictor.EvictionOutcome.Result.EVICTED) {
                history.add(new PastEviction(now, pod.namespace(), pod.controller().uid(), pod.labels()));
                log.info("rescheduler: evicted {} from {} ({}: {}); expected on {}", pod.ref(), move.from(),
                        move.policy(), move.reason(), move.to());
            }
            results.add(new RoundReport.MoveResult(move, RoundReport.MoveOutcome.of(outcome.result()), detail));
        }
        List<RoundReport.RoomResult> roomResults = mode == ReschedulerMode.DRY_RUN
                ? plan.rooms().stream().map(r -> new RoundReport.RoomResult(r, RoundReport.RoomOutcome.PLANNED, null)).toList()
                : rooms.finish();
        List<RoundReport.DrainResult> drainResults = mode == ReschedulerMode.DRY_RUN ? planned(plan)
                : drainEvictions.counted(drains.finish(), results);
        for (String node : drains.heldBack(drainResults)) {
            nodeBackoff.refused(node, backoffRounds(config.state().settings().refusalBackoffMax()));
        }
        drainResults.stream().filter(d -> d.result() == RoundReport.DrainOutcome.EMPTIED)
                .forEach(d -> nodeBackoff.forget(d.drain().node()));
        backoff.roundDone(uidsOf(snapshot));
        nodeBackoff.roundDone(snapshot.nodes().stream().map(NodeInfo::name).collect(Collectors.toSet()));
        metrics.backoffs(backoff.size());
        if (mode == ReschedulerMode.EVICT) {
            snapshot.nodesWithAvoidances().values().stream().filter(n -> n.admission().hasExpiredOwn(now))
                    .forEach(n -> evictor.expireAvoidances(n.name()));
        }
        List<RoundReport.LandingResult> closed = landings.takeClosedSinceRound();
        if (mode == ReschedulerMode.EVICT) {
            landings.releaseEnded(snapshot, now);
            closed.addAll(landings.close(snapshot, now));
        }
        return new RoundReport(now, mode, null, plan.ran(), results, plan.skipped(), roomResults, drainResults, closed,
                nanos.getAsLong() - start);
    }

    private static List<RoundReport.DrainResult> planned(ReschedulePlan plan) {
        return plan.drains().stream().map(d -> new RoundReport.DrainResult(d, RoundReport.DrainOutcome.PLANNED, null)).toList();
    }

    /**
     * The first member of gang {@code key} moved in {@code plan} whose eviction the API would refuse now
     * (asked as a dry run), in words; empty when it would evict them all. Half a gang evicted stops it
     * whole, so its members go together or none does.
     */
    private Optional<String> wouldRefuseAMember(ReschedulePlan plan, ClusterSnapshot snapshot, String key) {
        for (Move move : plan.moves()) {
            PodInfo member = snapshot.pod(move.pod().uid());
            if (member == null || member.gang() == null || !member.gang().key().equals(key)) {
                continue;
            }
            Evictor.EvictionOutcome asked = evictor.wouldEvict(member);
            if (asked.result() == Evictor.EvictionOutcome.Result.BLOCKED_BY_BUDGET
                    || asked.result() == Evictor.EvictionOutcome.Result.FAILED) {
                return Optional.of(member.ref() + " (" + asked.detail() + ")");
            }
        }
        return Optional.empty();
    }

    /** The longest backoff in rounds: {@code max} over the rounds' interval, at least one round. */
    private int backoffRounds(Duration max) {
        long every = Math.max(1, (interval == null ? UNSTARTED_INTERVAL : interval).toMillis());
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, max.toMillis() / every));
    }

    private static Set<String> uidsOf(ClusterSnapshot snapshot) {
        Set<String> uids = new HashSet<>();
        snapshot.pods().forEach(p -> uids.add(p.uid()));
        return uids;
    }

    private static String budgetNames(ClusterSnapshot snapshot, PodInfo pod) {
        List<DisruptionBudget> budgets = snapshot.budgetsCovering(pod);
        return budgets.isEmpty() ? "none in makeroom's view"
                : budgets.stream().map(b -> b.namespace() + "/" + b.name()).collect(Collectors.joining(", "));
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
