package dev.makeroom.core.rounds.defragment;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.HostPort;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.model.Toleration;
import dev.makeroom.core.rounds.KeptOracle;
import dev.makeroom.core.rounds.LandingOracle;
import dev.makeroom.core.rounds.MovableCluster;
import dev.makeroom.core.rounds.Move;
import dev.makeroom.core.rounds.ReschedulePlan;
import dev.makeroom.core.rounds.RescheduleSettings;
import dev.makeroom.core.rounds.RoomPlan;
import dev.makeroom.core.rounds.SettingsBuilder;
import dev.makeroom.core.rounds.rebalance.RebalanceSettings;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Tally;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Defragmentation on small random clusters, against an oracle written apart from the planner: every
 * plan, enacted in order, lands each moved pod and then the pending pod; it never moves a pod it must
 * not; and the first pod's plan moves as few pods as a brute force over every set and placement finds.
 */
class DefragmentProperties {

    private static final int MAX_MOVES = DefragmentTest.DEFRAGMENT.maxMoves();

    /** A random crowded cluster with two pods waiting, the first of higher priority, and maybe a budget. */
    static ClusterSnapshot crowded(long seed) {
        return crowded(seed, true);
    }

    /** As above; without {@code interPod}, no pod has topology spread, pod affinity or zone anti-affinity. */
    static ClusterSnapshot crowded(long seed, boolean interPod) {
        Random random = new Random(seed);
        ClusterSnapshot base = MovableCluster.generate(seed, interPod).snapshot();
        ClusterSnapshot.Change change = base.change();
        int index = 1000;
        for (NodeInfo node : base.nodes()) { // fill every node to about half or more, so free room is scattered
            long cpu = node.requested().get("cpu");
            long target = 1500 + random.nextInt(1500);
            List<PodInfo> pods = new ArrayList<>(node.pods());
            for (int count = node.pods().size(); cpu < target && count < 7; count++) {
                PodInfo pod = MovableCluster.pod(random, index++, node.name(), interPod);
                change.putPod(pod);
                pods.add(pod);
                cpu += pod.requests().get("cpu");
            }
            change.putNode(node.withPods(pods, node.nominatedPods())); // a node holds its pods itself
        }
        for (int p = 0; p < 2; p++) {
            PodInfo.Builder pending = PodInfo.builder("waiting-" + p).name("waiting-" + p).namespace("ns-0")
                    .priority(p == 0 ? 200 : 100)
                    .requests(Resources.of("cpu", 2500L + 500L * random.nextInt(4), "memory", 2000L + 1000L * random.nextInt(5)))
                    .unschedulableSince(DefragmentTest.NOW.minusSeconds(300))
                    .controller(new OwnerRef("Job", "job-" + p, "job-uid-" + p));
            switch (random.nextInt(4)) {
                case 0 -> pending.hostPorts(List.of(new HostPort("0.0.0.0", "TCP", 8080)));
                case 1 -> pending.tolerations(List.of(new Toleration("dedicated", "Exists", null, null)));
                default -> { }
            }
            change.putPod(pending.build());
        }
        if (random.nextBoolean()) {
            change.budgets(List.of(new DisruptionBudget("ns-0", "app-0", LabelSelector.matching(Map.of("app", "app-0")),
                    random.nextInt(2), Set.of())));
        }
        return change.build();
    }

    private static RescheduleSettings settings() {
        return SettingsBuilder.limits(new RescheduleSettings.MoveLimits(100, 100, 100, 100, 100))
                .defragment(DefragmentTest.DEFRAGMENT).build();
    }

    @Property(tries = 300)
    void every_plan_enacted_in_order_lands_every_moved_pod_and_then_the_pending_pod(@ForAll long seed) {
        ClusterSnapshot snapshot = crowded(seed);
        ReschedulePlan plan = DefragmentTest.plan(snapshot, settings());
        assertThat(violations(snapshot, plan)).isEmpty();
    }

    /**
     * Where pods land on their own merits (resources, ports, taints, selectors, anti-affinity by node),
     * the search is complete: the first pod's plan moves as few pods as a brute force finds.
     */
    @Property(tries = 300)
    void the_first_pods_plan_moves_as_few_pods_as_any_that_works(@ForAll long seed) {
        ClusterSnapshot snapshot = crowded(seed, false);
        PodInfo first = snapshot.pod("waiting-0");
        ReschedulePlan plan = DefragmentTest.plan(snapshot, settings());
        int fewest = fewestMoves(snapshot, first);
        RoomPlan room = plan.rooms().stream().filter(r -> r.pending().uid().equals(first.uid())).findFirst().orElse(null);
        if (fewest <= 0) { // it fits already (0), or no set of at most MAX_MOVES works (-1)
            assertThat(room).isNull();
        } else {
            assertThat(room).as("brute force moves %d", fewest).isNotNull();
            assertThat(room.moves()).hasSize(fewest);
            assertThat(room.proven()).isTrue();
        }
    }

    /**
     * Where topology spread and pod affinity tie landings together, a plan is never one a brute force
     * beats while it says it is proven, and never finds fewer moves than exist.
     */
    @Property(tries = 200)
    void with_spread_and_affinity_a_proven_plan_is_still_the_fewest(@ForAll long seed) {
        ClusterSnapshot snapshot = crowded(seed, true);
        PodInfo first = snapshot.pod("waiting-0");
        ReschedulePlan plan = DefragmentTest.plan(snapshot, settings());
        RoomPlan room = plan.rooms().stream().filter(r -> r.pending().uid().equals(first.uid())).findFirst().orElse(null);
        if (room == null) {
            return;
        }
        int fewest = fewestMoves(snapshot, first);
        assertThat(room.moves().size()).as("brute force moves %d", fewest).isGreaterThanOrEqualTo(fewest);
        if (room.proven()) {
            assertThat(room.moves()).hasSize(fewest);
        }
        Tally.label("proven").collect(room.proven());
    }

    /**
     * Pending pods of one shape share the search's work (a no-room answer, what scanning the nodes
     * found): the round's plan is the one where each pod is searched on its own (each given a label no
     * selector reads, so no two share a shape), with the round's limit tight or not.
     */
    @Property(tries = 200)
    void pods_of_one_shape_get_the_answer_a_search_of_their_own_gives(@ForAll long seed) {
        ClusterSnapshot base = crowded(seed);
        Random random = new Random(seed);
        int clones = 2 + random.nextInt(5);
        int perRound = List.of(1, 2, 3, 5, 100).get(random.nextInt(5));
        RescheduleSettings settings = SettingsBuilder.limits(new RescheduleSettings.MoveLimits(perRound, 100, 100, 100, 100))
                .rebalance(settings().policy(RebalanceSettings.class)).defragment(DefragmentTest.DEFRAGMENT).build();
        List<String> shared = described(DefragmentTest.plan(withClones(base, clones, false), settings));
        List<String> apart = described(DefragmentTest.plan(withClones(base, clones, true), settings));
        assertThat(shared).as("seed %d", seed).isEqualTo(apart);
        Tally.label("rooms").collect(shared.stream().filter(line -> line.startsWith("room")).count());
    }

    /** The snapshot with {@code clones} more pods like waiting-0, each of a Job of its own that runs nowhere. */
    private static ClusterSnapshot withClones(ClusterSnapshot base, int clones, boolean apart) {
        PodInfo first = base.pod("waiting-0");
        ClusterSnapshot.Change change = base.change();
        for (int i = 0; i <= clones; i++) {
            PodInfo.Builder pod = i == 0 ? first.toBuilder() : first.toBuilder().uid("clone-" + i).name("clone-" + i)
                    .controller(new OwnerRef("Job", "job-clone-" + i, "job-clone-uid-" + i))
                    .unschedulableSince(first.unschedulableSince().plusSeconds(i));
            if (apart) {
                Map<String, String> labels = new HashMap<>(first.labels());
                labels.put("makeroom.test/clone", String.valueOf(i));
                pod.labels(labels);
            }
            change.putPod(pod.build());
        }
        return change.build();
    }

    private static List<String> described(ReschedulePlan plan) {
        List<String> lines = new ArrayList<>();
        plan.rooms().forEach(r -> lines.add("room " + r.pending().name() + " on " + r.node() + ": "
                + r.moves().stream().map(m -> m.pod().name() + "->" + m.to()).toList() + " proven " + r.proven()));
        plan.skipped().forEach(k -> lines.add("skip " + k.pod().name() + " " + k.category() + ": " + k.reason()));
        return lines;
    }

    /** What is wrong with the plan when enacted in order on the snapshot, as readable lines (none: all well). */
    static List<String> violations(ClusterSnapshot snapshot, ReschedulePlan plan) {
        List<String> wrong = new ArrayList<>();
        Map<String, List<PodInfo>> onNode = new HashMap<>();
        snapshot.nodes().forEach(n -> onNode.put(n.name(), new ArrayList<>(n.pods())));
        Set<String> held = new java.util.HashSet<>();
        plan.rooms().forEach(r -> held.add(r.node()));
        Map<DisruptionBudget, Integer> spent = new HashMap<>();
        List<String> movedThisRound = new ArrayList<>();
        for (RoomPlan room : plan.rooms()) {
            PodInfo pending = snapshot.pod(room.pending().uid());
            if (room.moves().isEmpty() || room.moves().size() > MAX_MOVES) {
                wrong.add(room.pending() + ": " + room.moves().size() + " moves");
            }
            for (Move move : room.moves()) {
                PodInfo pod = snapshot.pod(move.pod().uid());
                if (!mayMove(pod, pending)) {
                    wrong.add(pod.name() + " may not move for " + pending.name());
                }
                for (DisruptionBudget budget : snapshot.budgetsCovering(pod)) {
                    if (spent.merge(budget, 1, Integer::sum) > budget.disruptionsAllowed()) {
                        wrong.add(pod.name() + " passes budget " + budget);
                    }
                }
                if (!move.from().equals(room.node()) || !pod.nodeName().equals(move.from()) || held.contains(move.to())
                        || !LandingOracle.landsOn(snapshot, onNode, pod, move.to(), null)) {
                    wrong.add(pod.name() + " does not land on " + move.to());
                }
                onNode.get(move.from()).removeIf(p -> p.uid().equals(pod.uid()));
                onNode.get(move.to()).add(pod);
            }
            room.moves().forEach(m -> movedThisRound.add(m.pod().uid())); // a moved pod's own spread is its landing's
            if (!KeptOracle.keeps(snapshot, LandingOracle.placed(snapshot, onNode), movedThisRound)) {
                wrong.add("the moves for " + pending.name() + " leave a pod that stays worse off");
            }
            if (!LandingOracle.landsOn(snapshot, onNode, pending, room.node(), null)) {
                wrong.add(pending.name() + " does not fit on " + room.node() + " after the moves");
            }
            onNode.get(room.node()).add(pending);
        }
        return wrong;
    }

    private static boolean mayMove(PodInfo pod, PodInfo pending) {
        return pod.controller() != null && !pod.controller().isDaemonSet() && !pod.optedOut()
                && pod.priority() <= pending.priority() && !pod.controller().equals(pending.controller());
    }

    /** The fewest pods whose moves let {@code pending} run, by trying every set and placement: 0 if it fits, -1 if none of at most MAX_MOVES does. */
    private static int fewestMoves(ClusterSnapshot snapshot, PodInfo pending) {
        for (NodeInfo node : snapshot.nodes()) {
            if (LandingOracle.landsOn(snapshot, placedOn(snapshot), pending, node.name(), null)) {
                return 0;
            }
        }
        int fewest = -1;
        for (NodeInfo node : snapshot.nodes()) {
            List<PodInfo> pods = node.pods();
            for (int mask = 1; mask < (1 << pods.size()); mask++) {
                if (Integer.bitCount(mask) > MAX_MOVES || (fewest > 0 && Integer.bitCount(mask) >= fewest)) {
                    continue;
                }
                List<PodInfo> moved = new ArrayList<>();
                for (int i = 0; i < pods.size(); i++) {
                    if ((mask & (1 << i)) != 0) {
                        moved.add(pods.get(i));
                    }
                }
                if (moved.stream().allMatch(p -> mayMove(p, pending)) && withinBudgets(snapshot, moved)
                        && orders(moved).stream().anyMatch(order -> placeable(snapshot, pending, node.name(), order, 0,
                        placedOn(snapshot)))) {
                    fewest = moved.size();
                }
            }
        }
        return fewest;
    }

    /**
     * Every order of the pods: with topology spread one order can land where another cannot (the first
     * to land moves the counts the next is judged by), and the replacements land in the order evicted.
     */
    private static List<List<PodInfo>> orders(List<PodInfo> pods) {
        if (pods.size() <= 1) {
            return List.of(pods);
        }
        List<List<PodInfo>> all = new ArrayList<>();
        for (int i = 0; i < pods.size(); i++) {
            List<PodInfo> rest = new ArrayList<>(pods);
            PodInfo first = rest.remove(i);
            for (List<PodInfo> tail : orders(rest)) {
                List<PodInfo> order = new ArrayList<>();
                order.add(first);
                order.addAll(tail);
                all.add(order);
            }
        }
        return all;
    }

    private static Map<String, List<PodInfo>> placedOn(ClusterSnapshot snapshot) {
        Map<String, List<PodInfo>> onNode = new HashMap<>();
        snapshot.nodes().forEach(n -> onNode.put(n.name(), new ArrayList<>(n.pods())));
        return onNode;
    }

    /**
     * Whether the pods from {@code index} on can each be moved off {@code freed} to some other node, one
     * after another, and the pending pod then fits on {@code freed}.
     */
    private static boolean placeable(ClusterSnapshot snapshot, PodInfo pending, String freed, List<PodInfo> pods,
                                     int index, Map<String, List<PodInfo>> onNode) {
        if (index == pods.size()) {
            return KeptOracle.keeps(snapshot, LandingOracle.placed(snapshot, onNode), pods.stream().map(PodInfo::uid).toList())
                    && LandingOracle.landsOn(snapshot, onNode, pending, freed, null);
        }
        PodInfo pod = pods.get(index);
        for (NodeInfo target : snapshot.nodes()) {
            if (!target.name().equals(freed) && LandingOracle.landsOn(snapshot, onNode, pod, target.name(), null)) {
                onNode.get(freed).remove(pod);
                onNode.get(target.name()).add(pod);
                boolean rest = placeable(snapshot, pending, freed, pods, index + 1, onNode);
                onNode.get(target.name()).remove(pod);
                onNode.get(freed).add(pod);
                if (rest) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean withinBudgets(ClusterSnapshot snapshot, List<PodInfo> moved) {
        for (DisruptionBudget budget : snapshot.budgets()) {
            if (moved.stream().filter(budget::covers).count() > budget.disruptionsAllowed()) {
                return false;
            }
        }
        return true;
    }
}
