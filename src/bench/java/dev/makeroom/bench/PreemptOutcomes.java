package dev.makeroom.bench;

import dev.makeroom.core.preemption.DecisionOutcome;
import dev.makeroom.core.preemption.PreemptionDecision;
import dev.makeroom.core.room.NodeVerdict;

import java.util.Map;
import java.util.TreeMap;

/**
 * What a preempt benchmark's decisions concluded: decisions by outcome, candidate nodes by how they
 * ended (feasible, dominated by a better node, or the reason they could not make room). A benchmark
 * named for preemption measures nothing if its pod fit anyway, so runs check this before timing.
 */
record PreemptOutcomes(Map<String, Long> decisions, Map<String, Long> nodes) {

    static PreemptOutcomes of(PreemptionDecision decision) {
        Map<String, Long> nodes = new TreeMap<>();
        for (NodeVerdict verdict : decision.verdicts()) {
            String how = !verdict.isFeasible() ? verdict.reason().name() : verdict.dominated() ? "DOMINATED" : "FEASIBLE";
            nodes.merge(how, 1L, Long::sum);
        }
        return new PreemptOutcomes(Map.of(decision.outcome().name(), 1L), nodes);
    }

    /** From makeroom's own counters ({@code makeroom_preemption_decisions_total}, {@code …_node_searches_total}). */
    static PreemptOutcomes counted(Map<String, Long> decisions, Map<String, Long> nodes) {
        return new PreemptOutcomes(new TreeMap<>(decisions), new TreeMap<>(nodes));
    }

    /** More than half the decisions preempted, and more than half the candidates could make room. */
    boolean mostlyPreempt() {
        long feasible = nodes.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("FEASIBLE")
                || e.getKey().equalsIgnoreCase("DOMINATED") || e.getKey().equalsIgnoreCase("PROVEN_OPTIMAL")
                || e.getKey().equalsIgnoreCase("BUDGET_EXHAUSTED")).mapToLong(Map.Entry::getValue).sum();
        return 2 * share(DecisionOutcome.PREEMPT) > total(decisions) && 2 * feasible > total(nodes);
    }

    /** No decision evicted anything. */
    boolean noneEvicted() {
        return share(DecisionOutcome.PREEMPT) == 0 && total(decisions) > 0;
    }

    private long share(DecisionOutcome outcome) {
        return decisions.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(outcome.name()))
                .mapToLong(Map.Entry::getValue).sum();
    }

    private static long total(Map<String, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    @Override
    public String toString() {
        return "decisions " + decisions + ", candidate nodes " + nodes;
    }
}
