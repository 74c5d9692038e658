package dev.makeroom.rescheduler;

import dev.makeroom.cluster.Leadership;
import dev.makeroom.core.rounds.Evictor;
import dev.makeroom.core.rounds.PolicyReader;
import dev.makeroom.core.rounds.Skip;
import dev.makeroom.core.rounds.SkipCategory;
import dev.makeroom.core.rounds.planner.ReschedulePlanner;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The rescheduler's metrics: evictions by policy and result, moves planned and pods left in place by
 * policy and category (for defragment: the pending pods not helped, by why), room made for pending
 * pods by result (never by pod: bounded label values), the consolidate policy's nodes by what came of
 * them each round (never by node), where moved pods' replacements landed, how long rounds take, the pods held back after
 * refusals and the policies documents rejected. The common series exist at zero from the start.
 */
public final class ReschedulerMetrics {

    // the results RoundReport.RoomResult names, lower-cased
    private static final List<String> ROOM_RESULTS = List.of("planned", "enacted", "partly_enacted", "not_enacted");

    private final MeterRegistry registry;
    private final Timer rounds;
    private final AtomicInteger backoffs = new AtomicInteger();
    private final EvictedPodsMetric evictedPods;

    public ReschedulerMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.rounds = Timer.builder("makeroom.rescheduler.round").description("Rescheduler rounds that planned")
                .register(registry);
        this.evictedPods = new EvictedPodsMetric(registry);
        for (String result : ROOM_RESULTS) { // every result from the start: a dashboard shows 0, not "no data"
            rooms(result);
        }
        for (PolicyReader<?> policy : ReschedulePlanner.policies()) { // likewise, and alerts see them before the first move
            String name = policy.kind().name().toLowerCase(Locale.ROOT);
            moves(name);
            for (Evictor.EvictionOutcome.Result result : Evictor.EvictionOutcome.Result.values()) {
                evictions(name, result.name().toLowerCase(Locale.ROOT));
            }
            evictions(name, "not_leading"); // the results the rounds give moves they did not send
            evictions(name, "not_tried");
            for (SkipCategory category : List.of(SkipCategory.LIMIT, SkipCategory.BUDGET, SkipCategory.BACKOFF,
                    SkipCategory.NO_LANDING)) {
                skipped(name, category.label());
            }
        }
        for (RoundReport.DrainOutcome outcome : RoundReport.DrainOutcome.values()) {
            drains(outcome.name().toLowerCase(Locale.ROOT));
        }
        for (RoundReport.LandingOutcome outcome : RoundReport.LandingOutcome.values()) {
            landings(outcome.name().toLowerCase(Locale.ROOT));
        }
        Gauge.builder("makeroom.rescheduler.backoffs", backoffs, AtomicInteger::doubleValue)
                .description("Pods held back from the plans after the Eviction API refused them").register(registry);
    }

    private Counter moves(String policy) {
        return Counter.builder("makeroom.rescheduler.moves").description("Moves planned")
                .tag("policy", policy).register(registry);
    }

    private Counter evictions(String policy, String result) {
        return Counter.builder("makeroom.rescheduler.evictions").description("Evictions tried, by what the API said")
                .tag("policy", policy).tag("result", result).register(registry);
    }

    private Counter skipped(String policy, String category) {
        return Counter.builder("makeroom.rescheduler.skipped").description("Pods a policy would move and did not")
                .tag("policy", policy).tag("category", category).register(registry);
    }

    /**
     * Publishes the policies documents the ConfigMap brought and makeroom rejected, as
     * makeroom_rescheduler_config_reload_failures_total.
     */
    public void configFailures(ReschedulerConfigService config) {
        FunctionCounter.builder("makeroom.rescheduler.config.reload.failures", config,
                        ReschedulerConfigService::reloadFailures)
                .description("Rescheduler policies documents from the ConfigMap rejected as invalid").register(registry);
    }

    /** The number of pods held back after refusals, as makeroom_rescheduler_backoffs. */
    void backoffs(int held) {
        backoffs.set(held);
    }

    private Counter drains(String result) {
        return Counter.builder("makeroom.rescheduler.consolidations")
                .description("Nodes the consolidate policy drained or tried, by what came of them this round")
                .tag("result", result).register(registry);
    }

    private Counter landings(String result) {
        return Counter.builder("makeroom.rescheduler.landings")
                .description("Moved pods' landings closed, by where the replacement bound: as planned, elsewhere, or none in time")
                .tag("result", result).register(registry);
    }

    private Counter rooms(String result) {
        return Counter.builder("makeroom.rescheduler.rooms").description("Room made for pending pods by moving others")
                .tag("result", result).register(registry);
    }

    /** Publishes {@code leading} as makeroom_rescheduler_leader (1 on the replica that acts). */
    public void leader(Leadership leadership) {
        Gauge.builder("makeroom.rescheduler.leader", leadership, l -> l.leading() ? 1 : 0)
                .description("1 on the replica whose rescheduler rounds act").register(registry);
    }

    void round(RoundReport report) {
        if (report.idle() != null) {
            return;
        }
        rounds.record(Duration.ofNanos(report.nanos()));
        for (RoundReport.MoveResult result : report.moves()) {
            String policy = result.move().policy().name().toLowerCase(Locale.ROOT);
            moves(policy).increment();
            if (result.result() != RoundReport.MoveOutcome.PLANNED) {
                evictions(policy, result.result().name().toLowerCase(Locale.ROOT)).increment();
            }
            if (result.result() == RoundReport.MoveOutcome.EVICTED) {
                evictedPods.evicted(result.move().pod().namespace(), result.move().from());
            }
        }
        for (RoundReport.RoomResult room : report.rooms()) {
            rooms(room.result().name().toLowerCase(Locale.ROOT)).increment();
        }
        for (RoundReport.DrainResult drain : report.drains()) {
            drains(drain.result().name().toLowerCase(Locale.ROOT)).increment();
        }
        for (RoundReport.LandingResult landing : report.landings()) {
            landings(landing.result().name().toLowerCase(Locale.ROOT)).increment();
        }
        for (Skip skip : report.skipped()) {
            skipped(skip.policy().name().toLowerCase(Locale.ROOT), skip.category().label()).increment();
        }
    }
}
