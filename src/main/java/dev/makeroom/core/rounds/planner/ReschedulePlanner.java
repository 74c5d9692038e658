package dev.makeroom.core.rounds.planner;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.rounds.BudgetLedger;
import dev.makeroom.core.rounds.LandingRule;
import dev.makeroom.core.rounds.LimitLedger;
import dev.makeroom.core.rounds.MoveBlocker;
import dev.makeroom.core.rounds.PlannedCluster;
import dev.makeroom.core.rounds.PolicyReader;
import dev.makeroom.core.rounds.ReschedulePlan;
import dev.makeroom.core.rounds.ReschedulePolicy;
import dev.makeroom.core.rounds.Round;
import dev.makeroom.core.rounds.RoundInputs;
import dev.makeroom.core.rounds.RoundPolicy;
import dev.makeroom.core.rounds.Scope;
import dev.makeroom.core.rounds.affinity.AffinityPolicy;
import dev.makeroom.core.rounds.consolidate.ConsolidatePolicy;
import dev.makeroom.core.rounds.defragment.DefragmentPolicy;
import dev.makeroom.core.rounds.duplicates.DuplicatesPolicy;
import dev.makeroom.core.rounds.rebalance.RebalancePolicy;
import dev.makeroom.core.rounds.spread.SpreadPolicy;
import dev.makeroom.core.rounds.taints.TaintsPolicy;

import java.util.ArrayList;
import java.util.List;

/**
 * Plans one round of the rescheduler: which running pods to evict, and where each will land.
 *
 * <p><b>Design.</b> A move is planned only where makeroom can show the pod lands elsewhere: the
 * round keeps a {@link PlannedCluster} (the snapshot with the round's earlier moves applied) and a
 * pod moves only to a node where, on that state, the scheduler's filters makeroom models pass without
 * preemption, whose avoid list does not name its controller (nor did a move off it this round), and
 * which serves the policy's goal. Pods whose placement depends on anything it does not check
 * ({@link MoveBlocker}) stay, and so do pods outside the document's {@link Scope}. Every move is
 * counted against the {@link LimitLedger} and the {@link BudgetLedger} before it is planned; a pod a
 * budget does not let move now, or that the Eviction API refused lately, is skipped and the policy goes
 * on to its next candidate, so one guarded pod never stalls the movable ones beside it.
 *
 * <p>The {@link #POLICIES} run in this order, each with its design at the top of its class:
 * defragment first (a pod that runs nowhere waits on it); then those that fix a placement the cluster's
 * rules now refuse (affinity, taints, spread); then duplicates, then rebalance; consolidate last (no
 * other policy's move lands on a node it empties). No move makes its own condition or an earlier
 * policy's worse, and none goes straight back, so rounds come to rest. Deterministic: nodes and pods
 * are visited in a fixed order, ties broken by name.
 */
public final class ReschedulePlanner {

    /**
     * Every policy, in the order a round runs them and the document's sections are read: the one
     * registration. Consolidation reads rebalance's settings, so rebalance comes before it.
     */
    public static final List<RoundPolicy<?>> POLICIES = List.of(new DefragmentPolicy(), new AffinityPolicy(),
            new TaintsPolicy(), new SpreadPolicy(), new DuplicatesPolicy(), new RebalancePolicy(),
            new ConsolidatePolicy());

    private ReschedulePlanner() {
    }

    /** What the policies document's reader asks of each policy, in their order. */
    public static List<PolicyReader<?>> policies() {
        return List.copyOf(POLICIES);
    }

    public static ReschedulePlan plan(RoundInputs inputs) {
        Round round = round(inputs);
        List<ReschedulePolicy> ran = new ArrayList<>();
        for (RoundPolicy<?> policy : POLICIES) {
            if (policy.runs(inputs.settings())) {
                policy.plan(round);
            }
            if (policy.on(inputs.settings())) {
                ran.add(policy.kind());
            }
        }
        return round.plan(ran);
    }

    /**
     * What defragmentation would do for {@code pending} alone, however long it has waited (the debug
     * API's question about one pod); the other policies do not run.
     */
    public static ReschedulePlan roomFor(RoundInputs inputs, PodInfo pending) {
        Round round = round(inputs);
        DefragmentPolicy.makeRoom(round, List.of(pending));
        return round.plan(List.of(DefragmentPolicy.KIND));
    }

    /** A round whose moves land where every policy's rule allows (the policies without one left out: asked per landing). */
    private static Round round(RoundInputs inputs) {
        return new Round(inputs, POLICIES.stream().map(p -> p.landingRule(inputs.settings()))
                .filter(rule -> rule != LandingRule.NONE).toList());
    }
}
