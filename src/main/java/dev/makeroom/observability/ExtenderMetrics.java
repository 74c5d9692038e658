package dev.makeroom.observability;

import dev.makeroom.core.preemption.NodeVerdict;
import dev.makeroom.core.preemption.PreemptionDecision;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Metrics of the extender verbs and of preemption decisions. Tags are enums and verb names only:
 * never a pod or node name, so cardinality stays bounded.
 */
@Component
public class ExtenderMetrics {

    /** Fine below 10 ms: filter and prioritize run on every scheduling cycle and aim at a few ms. */
    static final Duration[] LATENCY_BUCKETS = {
            Duration.ofNanos(250_000), Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofMillis(2),
            Duration.ofMillis(3), Duration.ofMillis(4), Duration.ofMillis(5), Duration.ofMillis(10),
            Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
            Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5)};

    private final MeterRegistry registry;

    public ExtenderMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** One extender request: its verb (filter, prioritize, preempt or other) and outcome class. */
    public void recordRequest(String verb, String outcome, long nanos) {
        Timer.builder("makeroom.extender.request")
                .description("Time to answer an extender call, by verb and outcome")
                .tag("verb", verb).tag("outcome", outcome)
                .serviceLevelObjectives(LATENCY_BUCKETS)
                .register(registry).record(Duration.ofNanos(nanos));
    }

    /** A preempt call answered without deciding because the cluster view has not synced. */
    public void recordNotReady() {
        decisions("not_ready").increment();
    }

    public void recordDecision(PreemptionDecision decision) {
        decisions(decision.outcome().name().toLowerCase(Locale.ROOT)).increment();
        DistributionSummary.builder("makeroom.preemption.victims")
                .description("Victims answered per preemption decision, on the preferred node")
                .serviceLevelObjectives(1, 2, 3, 5, 8, 13, 21, 34)
                .register(registry)
                .record(decision.chosen().isEmpty() ? 0 : decision.chosen().get(0).victims().victims().size());
        Timer.builder("makeroom.preemption.decision")
                .description("Time to decide one preempt call, in the core")
                .serviceLevelObjectives(LATENCY_BUCKETS)
                .register(registry).record(Duration.ofNanos(decision.nanos()));
        // tallied first: one meter lookup per result, not one per candidate node (up to 500 per call)
        Map<String, Integer> byResult = new HashMap<>();
        decision.verdicts().forEach(verdict -> byResult.merge(result(verdict), 1, Integer::sum));
        byResult.forEach((result, count) -> Counter.builder("makeroom.preemption.node.searches")
                .description("Candidate node evaluations, by how they ended")
                .tag("result", result)
                .register(registry).increment(count));
    }

    private static String result(NodeVerdict verdict) {
        if (!verdict.isFeasible()) {
            return verdict.reason().name().toLowerCase(Locale.ROOT);
        }
        if (verdict.dominated()) {
            return "dominated";
        }
        return verdict.provenOptimal() ? "proven_optimal" : "budget_exhausted";
    }

    private Counter decisions(String result) {
        return Counter.builder("makeroom.preemption.decisions")
                .description("Preemption decisions, by result")
                .tag("result", result).register(registry);
    }
}
