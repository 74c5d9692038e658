package dev.makeroom.observability;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.preemption.DecisionOutcome;
import dev.makeroom.core.preemption.GangLoss;
import dev.makeroom.core.preemption.PreemptionDecision;
import dev.makeroom.core.preemption.SchedulersChoice;
import dev.makeroom.core.room.InfeasibleReason;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.WorkPrice;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

/**
 * Metrics of the extender verbs and of preemption decisions. Tags are enums and verb names only:
 * never a pod or node name, so cardinality stays bounded. Every series the verbs write exists at
 * zero from the start: rates and alerts see them before the first preemption, and the scheduler's
 * first calls do not pay for creating their meters (3 ms on the first preempt).
 */
@Component
public class ExtenderMetrics {

    /**
     * Fine below 25 ms: filter and prioritize run on every scheduling cycle and aim at a few ms, and a
     * preempt decision's tail (a young collection's pause) lies between 5 and 25 ms, where a p99 must
     * be readable to the millisecond or two.
     */
    static final Duration[] LATENCY_BUCKETS = {
            Duration.ofNanos(250_000), Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofMillis(2),
            Duration.ofMillis(3), Duration.ofMillis(4), Duration.ofMillis(5), Duration.ofMillis(6), Duration.ofMillis(8),
            Duration.ofMillis(10), Duration.ofMillis(12), Duration.ofMillis(15), Duration.ofMillis(20),
            Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
            Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5)};

    static final List<String> VERBS = List.of("filter", "prioritize", "preempt");
    /** A request's outcome class: answered (below 400), refused as bad input (4xx), failed (5xx). */
    static final String OK = "ok";
    static final String REJECTED = "rejected";
    static final String ERROR = "error";
    private static final String DOMINATED = "dominated";
    private static final String PROVEN_OPTIMAL = "proven_optimal";
    private static final String BUDGET_EXHAUSTED = "budget_exhausted";

    private static final Map<InfeasibleReason, String> REASON_TAGS = new EnumMap<>(InfeasibleReason.class);

    static {
        for (InfeasibleReason reason : InfeasibleReason.values()) {
            REASON_TAGS.put(reason, tag(reason));
        }
    }

    private final MeterRegistry registry;
    // every meter a call records to, looked up once: a preempt call records to one per result of its
    // up to 500 candidate nodes, and a meter's builder makes its id and tags anew each time
    private final Map<String, Map<String, Timer>> requestTimers = new HashMap<>(); // by verb, then outcome: no key made per call
    private final Map<DecisionOutcome, Counter> decisionCounters = new EnumMap<>(DecisionOutcome.class);
    private final Map<String, Counter> searchCounters = new HashMap<>();
    private final Counter notReady;
    private final DistributionSummary victims;
    private final Timer decisionTime;
    private final Counter compared;
    private final Counter victimsSaved;
    private final Counter victimsAdded;
    private final Counter prioritySaved;
    private final Counter workSaved;
    private final Counter workAdded;
    private final Counter gangsBroken;
    private final Counter gangPodsLost;

    public ExtenderMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (String verb : VERBS) {
            Map<String, Timer> byOutcome = new HashMap<>();
            for (String outcome : List.of(OK, REJECTED, ERROR)) {
                byOutcome.put(outcome, requests(verb, outcome));
            }
            requestTimers.put(verb, byOutcome);
        }
        for (DecisionOutcome outcome : DecisionOutcome.values()) {
            decisionCounters.put(outcome, decisions(tag(outcome)));
        }
        notReady = decisions("not_ready");
        victims = victims();
        decisionTime = decisionTime();
        for (InfeasibleReason reason : InfeasibleReason.values()) {
            searchCounters.put(tag(reason), searches(tag(reason)));
        }
        List.of(DOMINATED, PROVEN_OPTIMAL, BUDGET_EXHAUSTED).forEach(r -> searchCounters.put(r, searches(r)));
        compared = counter("makeroom.preemption.compared",
                "Preempt decisions weighed against the scheduler's own pick over the same candidates");
        victimsSaved = counter("makeroom.preemption.victims.saved",
                "Victims the scheduler's own pick would have taken beyond makeroom's answer");
        victimsAdded = counter("makeroom.preemption.victims.added",
                "Victims makeroom's answer took beyond the scheduler's own pick (a budget or opt-out honoured)");
        prioritySaved = counter("makeroom.preemption.victim.priority.saved",
                "Victim priorities, added up, the scheduler's own pick would have taken beyond makeroom's");
        workSaved = Counter.builder("makeroom.preemption.work.saved").baseUnit("seconds")
                .description("Work lost (weighted seconds, makeroom.preemption.work-weights) the scheduler's own pick "
                        + "would have destroyed beyond makeroom's answer").register(registry);
        workAdded = Counter.builder("makeroom.preemption.work.added").baseUnit("seconds")
                .description("Work lost (weighted seconds) makeroom's answer destroyed beyond the scheduler's own pick")
                .register(registry);
        gangsBroken = counter("makeroom.preemption.gangs.broken",
                "Gangs whose members makeroom's victims leave below their minimum: their framework restarts them");
        gangPodsLost = counter("makeroom.preemption.gang.pods.lost",
                "Running gang members, beyond the victims, that stop with the gangs makeroom's victims break");
    }

    /** The gangs an answered preemption breaks, and the members that stop with them. */
    public void recordGangLosses(List<GangLoss> losses) {
        gangsBroken.increment(losses.size());
        gangPodsLost.increment(GangLoss.othersStopped(losses));
    }

    /** How a call ended, by its status: answered, refused as bad input (4xx), or failed (5xx). */
    public static String outcomeOf(int status) {
        if (status < 400) {
            return OK;
        }
        return status < 500 ? REJECTED : ERROR;
    }

    /** One extender request: its verb (filter, prioritize, preempt or other) and outcome class. */
    public void recordRequest(String verb, String outcome, long nanos) {
        Map<String, Timer> byOutcome = requestTimers.get(verb);
        Timer timer = byOutcome == null ? null : byOutcome.get(outcome);
        (timer != null ? timer : requests(verb, outcome)).record(nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * {@code makeroom_extender_pod_reads_total{source}}: where the pods the verbs are asked about came
     * from (each a count the verbs keep): {@code recent} (its bytes seen lately), {@code view} (the view's
     * own, at the same version), {@code kept} (its text read before), {@code translated} (read through
     * fabric8's model, most of a filter call's time when it happens).
     */
    public <T> void podReads(T counter, Map<String, ToLongFunction<T>> bySource) {
        // the meter holds only a weak reference to what it reads: the counter itself, a long-lived bean,
        // not a lambda nothing else holds (that one was collected, and the series read 0)
        bySource.forEach((source, count) -> FunctionCounter.builder("makeroom_extender_pod_reads", counter,
                        c -> count.applyAsLong(c))
                .description("pods the verbs were asked about, by where each came from")
                .tag("source", source).register(registry));
    }

    /** A preempt call answered without deciding because the cluster view has not synced. */
    public void recordNotReady() {
        notReady.increment();
    }

    public void recordDecision(PreemptionDecision decision) {
        decisionCounters.get(decision.outcome()).increment();
        victims.record(decision.chosen().isEmpty() ? 0 : decision.chosen().get(0).victims().victims().size());
        decisionTime.record(decision.nanos(), TimeUnit.NANOSECONDS);
        // tallied first: one increment per result, not one per candidate node (up to 500 per call)
        Map<String, Integer> byResult = new HashMap<>();
        decision.verdicts().forEach(verdict -> byResult.merge(result(verdict), 1, Integer::sum));
        byResult.forEach((result, count) -> searchCounters.get(result).increment(count));
    }

    /**
     * What makeroom's answer spared beside the scheduler's own heuristic over the same candidates: the
     * victims (and their priorities, added up) its pick would have taken beyond makeroom's. Counters
     * only rise, so an answer that takes more (it honoured a budget or an opt-out the heuristic would
     * not) counts under {@code victims_added}; {@code compared} counts the decisions weighed. The work
     * the answer loses ({@code workLost}, milli-units) is weighed likewise, in weighted seconds.
     */
    public void recordBeside(SchedulersChoice schedulers, NodeVerdict chosen, long workLost) {
        List<PodInfo> mine = chosen.victims().victims();
        long myPrioritySum = 0;
        for (PodInfo pod : mine) {
            myPrioritySum += pod.priority();
        }
        compared.increment();
        victimsSaved.increment(Math.max(0, schedulers.victims() - mine.size()));
        victimsAdded.increment(Math.max(0, mine.size() - schedulers.victims()));
        prioritySaved.increment(Math.max(0, schedulers.prioritySum() - myPrioritySum));
        workSaved.increment(WorkPrice.seconds(Math.max(0, schedulers.workLost() - workLost)));
        workAdded.increment(WorkPrice.seconds(Math.max(0, workLost - schedulers.workLost())));
    }

    private Counter counter(String name, String description) {
        return Counter.builder(name).description(description).register(registry);
    }

    private static String result(NodeVerdict verdict) {
        if (!verdict.isFeasible()) {
            return REASON_TAGS.get(verdict.reason());
        }
        if (verdict.dominated()) {
            return DOMINATED;
        }
        return verdict.provenOptimal() ? PROVEN_OPTIMAL : BUDGET_EXHAUSTED;
    }

    private static String tag(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    private Timer requests(String verb, String outcome) {
        return Timer.builder("makeroom.extender.request")
                .description("Time to answer an extender call, by verb and outcome")
                .tag("verb", verb).tag("outcome", outcome)
                .serviceLevelObjectives(LATENCY_BUCKETS)
                .register(registry);
    }

    private DistributionSummary victims() {
        return DistributionSummary.builder("makeroom.preemption.victims")
                .description("Victims answered per preemption decision, on the preferred node")
                .serviceLevelObjectives(1, 2, 3, 5, 8, 13, 21, 34)
                .register(registry);
    }

    private Timer decisionTime() {
        return Timer.builder("makeroom.preemption.decision")
                .description("Time to decide one preempt call, in the core")
                .serviceLevelObjectives(LATENCY_BUCKETS)
                .register(registry);
    }

    private Counter searches(String result) {
        return Counter.builder("makeroom.preemption.node.searches")
                .description("Candidate node evaluations, by how they ended")
                .tag("result", result)
                .register(registry);
    }

    private Counter decisions(String result) {
        return Counter.builder("makeroom.preemption.decisions")
                .description("Preemption decisions, by result")
                .tag("result", result).register(registry);
    }
}
