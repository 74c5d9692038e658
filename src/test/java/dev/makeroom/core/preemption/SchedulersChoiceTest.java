package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.room.InfeasibleReason;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.QueueRules;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scheduler's own pick, set beside each decision, and the stale hints found in the same lookups:
 * read off the decision, against the rules written out plainly here.
 */
class SchedulersChoiceTest {

    private static final PreemptionEngine ENGINE = new PreemptionEngine(PreemptionSettings.DEFAULTS, System::nanoTime);
    private static final PodInfo PENDING = PodInfo.builder("pending").priority(1000)
            .requests(Resources.of("cpu", 1000)).build();
    private static final ClusterSnapshot CLUSTER = ClusterSnapshot.builder()
            .node("n1", Map.of(), Resources.of("cpu", 4000)).node("n2", Map.of(), Resources.of("cpu", 4000))
            .node("n3", Map.of(), Resources.of("cpu", 4000))
            .pod(pod("a", "n1", 10)).pod(pod("b", "n1", 10))
            .pod(pod("c", "n2", 50))
            .pod(pod("d", "n3", 10)).pod(pod("e", "n3", 5)).build();

    private static PodInfo pod(String name, String node, int priority) {
        return PodInfo.builder(name).name(name).nodeName(node).priority(priority)
                .requests(Resources.of("cpu", 2000)).build();
    }

    private static SchedulersChoice picked(ClusterSnapshot snapshot, List<Candidate> offered) {
        return ENGINE.decide(snapshot, PENDING, offered, QueueRules.off()).schedulers();
    }

    @Test
    void the_scheduler_takes_fewest_violations_then_lowest_highest_priority_then_lowest_sum_then_fewest() {
        List<Candidate> offered = List.of(new Candidate("n2", List.of("c")), new Candidate("n1", List.of("a", "b")),
                new Candidate("n3", List.of("d", "e")));
        assertThat(picked(CLUSTER, offered)).isEqualTo(new SchedulersChoice("n3", 2, 15)); // sum 15 < 20
        List<Candidate> withBudgets = List.of(new Candidate("n3", List.of("d", "e"), 1), new Candidate("n1", List.of("a", "b")));
        assertThat(picked(CLUSTER, withBudgets)).isEqualTo(new SchedulersChoice("n1", 2, 20));
    }

    @Test
    void candidates_with_victims_makeroom_does_not_see_or_none_named_are_not_the_schedulers_pick() {
        assertThat(picked(CLUSTER, List.of(new Candidate("n1", List.of("gone")), new Candidate("n2", List.of()))))
                .isNull();
    }

    @Test
    void a_node_whose_named_victim_is_elsewhere_or_gone_is_left_out_naming_the_first_such_victim() {
        PreemptionDecision decision = ENGINE.decide(CLUSTER, PENDING, List.of(new Candidate("n1", List.of("a", "c", "gone")),
                new Candidate("n3", List.of("gone", "d"))), QueueRules.off());

        assertThat(decision.verdicts()).extracting(NodeVerdict::reason)
                .containsExactly(InfeasibleReason.UNKNOWN_VICTIM, InfeasibleReason.UNKNOWN_VICTIM);
        assertThat(decision.verdicts().get(0).detail()).contains("victim c is not on this node");
        assertThat(decision.verdicts().get(1).detail()).contains("victim gone is not on this node");
        assertThat(decision.schedulers()).isNull(); // n1 names a victim makeroom does not see: not weighed
    }

    @Test
    void it_says_how_makeroom_compares() {
        assertThat(new SchedulersChoice("n3", 2, 15).beside(1)).isEqualTo("1 victim where the scheduler's heuristic chose 2 (on n3)");
        assertThat(new SchedulersChoice("n3", 1, 10).beside(1)).isEqualTo("1 victim, as many as the scheduler's heuristic chose (on n3)");
    }

    /**
     * Whatever victims the scheduler names (on their node, on another, gone; nodes offered twice),
     * the decision's pick and its stale-hint verdicts are the plain rules'.
     */
    @Property(tries = 300)
    void the_pick_and_the_stale_hints_are_the_plain_rules(@ForAll long seed) {
        Random random = new Random(seed);
        ClusterSnapshot.Builder cluster = ClusterSnapshot.builder();
        List<String> uids = new ArrayList<>(List.of("gone"));
        for (int n = 0; n < 4; n++) {
            cluster.node("n" + n, Map.of(), Resources.of("cpu", 4000));
            for (int p = 0; p < 2; p++) {
                String uid = "p" + n + p;
                cluster.pod(PodInfo.builder(uid).nodeName("n" + n).priority(random.nextInt(4) * 10)
                        .requests(Resources.of("cpu", 2000)).build());
                uids.add(uid);
            }
        }
        ClusterSnapshot snapshot = cluster.build();
        List<Candidate> offered = new ArrayList<>();
        for (int c = random.nextInt(7); c > 0; c--) {
            List<String> named = new ArrayList<>();
            for (int v = random.nextInt(3); v > 0; v--) {
                // mostly the node's own pods, now and then one elsewhere or gone
                int node = random.nextInt(4);
                named.add(random.nextInt(5) == 0 ? uids.get(random.nextInt(uids.size())) : "p" + node + random.nextInt(2));
            }
            offered.add(new Candidate("n" + random.nextInt(4), named, random.nextInt(2)));
        }

        PreemptionDecision decision = ENGINE.decide(snapshot, PENDING, offered, QueueRules.off());

        assertThat(decision.schedulers()).isEqualTo(plainPick(snapshot, offered));
        Map<String, String> firstStale = new HashMap<>();
        offered.forEach(c -> firstStale.putIfAbsent(c.node(), String.valueOf(plainStale(snapshot, c))));
        for (NodeVerdict verdict : decision.verdicts()) {
            String stale = firstStale.get(verdict.node());
            assertThat(verdict.reason() == InfeasibleReason.UNKNOWN_VICTIM).as(verdict.node()).isEqualTo(!stale.equals("null"));
            if (!stale.equals("null")) {
                assertThat(verdict.detail()).contains("victim " + stale + " ");
            }
        }
    }

    /** The scheduler's pick written out: each candidate's key, compared whole. */
    private static SchedulersChoice plainPick(ClusterSnapshot snapshot, List<Candidate> offered) {
        SchedulersChoice best = null;
        long[] bestKey = null;
        for (Candidate candidate : offered) {
            List<PodInfo> victims = candidate.hintedVictimUids().stream().map(snapshot::pod).toList();
            if (victims.isEmpty() || victims.contains(null)) {
                continue;
            }
            long sum = victims.stream().mapToLong(PodInfo::priority).sum();
            long[] key = {candidate.hintedPdbViolations(), victims.stream().mapToLong(PodInfo::priority).max().orElseThrow(),
                    sum, victims.size()};
            if (bestKey == null || Arrays.compare(key, bestKey) < 0) {
                bestKey = key;
                best = new SchedulersChoice(candidate.node(), victims.size(), sum);
            }
        }
        return best;
    }

    /** The first victim named that is not on the candidate's node in the snapshot, or null. */
    private static String plainStale(ClusterSnapshot snapshot, Candidate candidate) {
        for (String uid : candidate.hintedVictimUids()) {
            PodInfo pod = snapshot.pod(uid);
            if (pod == null || !pod.nodeName().equals(candidate.node())) {
                return uid;
            }
        }
        return null;
    }
}
