package dev.makeroom.why;

import dev.makeroom.core.model.Amounts;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.placement.Placement;
import dev.makeroom.core.placement.PlacementSurvey;
import dev.makeroom.core.placement.SnapshotState;
import dev.makeroom.core.placement.Verdict;
import dev.makeroom.core.preemption.AnswerMode;
import dev.makeroom.core.preemption.GangLoss;
import dev.makeroom.core.preemption.PendingPodSurvey;
import dev.makeroom.core.preemption.PreemptionDecision;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.core.preemption.PreemptionPipeline;
import dev.makeroom.core.preemption.PreemptionSettings;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.WorkPrice;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * The answer to "why does this pod wait?" in words, as {@code --why} prints it and {@code GET /debug/why}
 * serves it: where the scheduler's filters allow the pod, the scheduler's summary line when nowhere,
 * and what preemption would decide, node by node, with every node's verdict (whatever answer mode the
 * engine was given).
 */
public final class WhyExplanation {

    private WhyExplanation() {
    }

    /**
     * Writes the explanation for {@code pending} on {@code snapshot} to {@code out}, asked with
     * {@code pipeline}'s engine settings and the survey {@code settings}; true when the pod fits or preemption
     * would make room.
     */
    public static boolean write(PreemptionPipeline pipeline, SnapshotState state, ClusterSnapshot snapshot,
                                PodInfo pending, PendingPodSurvey.Settings settings, PrintStream out) {
        out.println(pending.ref() + ": priority " + pending.priority() + ", requests " + Amounts.spelled(pending.requests())
                + (pending.isAssigned() ? ", bound to " + pending.nodeName() : ", pending")
                + " (kube-scheduler " + snapshot.version() + "'s rules)");
        PreemptionSettings given = pipeline.engine().settings();
        PreemptionPipeline everyNode = given.answer() == AnswerMode.ALL ? pipeline : pipeline.with(new PreemptionEngine(
                new PreemptionSettings(given.strategy(), AnswerMode.ALL, given.pdb(), given.budget(), given.objective(),
                        given.price()), System::nanoTime));
        PendingPodSurvey.Answer answer = PendingPodSurvey.ask(everyNode, state, snapshot, pending, settings);
        PlacementSurvey where = answer.where();
        if (!where.fits().isEmpty()) {
            out.println("fits without preemption on " + String.join(", ", where.fits()));
            return true;
        }
        out.println(summary(snapshot, where));
        Optional<PreemptionDecision> decision = answer.decision();
        out.println(decision.map(d -> "preemption: " + d.outcome() + " (" + d.detail() + ")"
                        + (d.chosen().isEmpty() ? "" : "; " + WorkPrice.describe(d.workLost())))
                .orElse("preemption: not tried (no node where evicting pods could help)"));
        WorkPrice.At price = pipeline.engine().shownPrice(); // each node's, as the decision priced its answer
        Map<String, NodeVerdict> verdicts = new TreeMap<>();
        decision.ifPresent(d -> d.verdicts().forEach(v -> verdicts.put(v.node(), v)));
        for (String node : snapshot.nodes().stream().map(NodeInfo::name).sorted().toList()) {
            NodeVerdict verdict = verdicts.get(node);
            String why = reasonOn(where, node);
            if (verdict == null) {
                out.println("  " + node + " (" + why + "): not a candidate — " + (where.on(node).verdict() == Verdict.UNKNOWN
                        ? "makeroom cannot tell whether the pod fits" : "evicting pods cannot change this"));
            } else if (verdict.isFeasible()) {
                out.println("  " + node + " (" + why + "): evict " + String.join(", ", verdict.victims().victims()
                        .stream().map(p -> p.ref() + " (priority " + p.priority() + ")").toList())
                        + "; " + WorkPrice.describe(price.ofAll(verdict.victims().victims()))
                        + budgetsBroken(snapshot, verdict.victims().victims())
                        + gangsBroken(snapshot, verdict.victims().victims())
                        + (verdict.provenOptimal() ? "" : " [search ran out of time: " + (verdict.stats().gap() == null
                        ? "not proven the fewest" : verdict.stats().gap().describe()) + "]"));
            } else {
                out.println("  " + node + " (" + why + "): no — "
                        + (verdict.detail() != null ? verdict.detail() : String.valueOf(verdict.reason())));
            }
        }
        return decision.filter(d -> !d.chosen().isEmpty()).isPresent();
    }

    /** The scheduler's own summary line: "0/4 nodes are available: 1 Insufficient memory, 3 Insufficient cpu." */
    static String summary(ClusterSnapshot snapshot, PlacementSurvey where) {
        Map<String, Integer> reasons = new TreeMap<>();
        snapshot.nodes().forEach(node -> reasons.merge(reasonOn(where, node.name()), 1, Integer::sum));
        StringJoiner text = new StringJoiner(", ", "0/" + snapshot.nodes().size() + " nodes are available: ", ".");
        reasons.forEach((reason, nodes) -> text.add(nodes + " " + reason));
        return text.toString();
    }

    /** Why the pod does not go to {@code node} now, in the scheduler's words; "fits" where it does. */
    private static String reasonOn(PlacementSurvey where, String node) {
        Placement placement = where.on(node);
        return placement.fits() ? "fits" : placement.reason();
    }

    /** The gangs these victims break, each with the members that stop with it. */
    static String gangsBroken(ClusterSnapshot snapshot, List<PodInfo> victims) {
        StringJoiner broken = new StringJoiner("; ", "; breaks ", "").setEmptyValue("");
        GangLoss.of(snapshot, victims).forEach(loss -> broken.add(loss.describe()));
        return broken.toString();
    }

    /** The PodDisruptionBudgets these victims spend beyond what they allow, each by name. */
    static String budgetsBroken(ClusterSnapshot snapshot, List<PodInfo> victims) {
        StringJoiner broken = new StringJoiner(", ", "; breaks PodDisruptionBudget ", "").setEmptyValue("");
        for (DisruptionBudget budget : snapshot.budgets()) {
            long spent = victims.stream().filter(budget::covers).count();
            if (budget.violationsAt(spent) > 0) {
                broken.add(budget + " (allows " + budget.disruptionsAllowed() + ", would lose " + spent + ")");
            }
        }
        return broken.toString();
    }
}
