package dev.makeroom.core.preemption;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.queue.QueueSpec;
import dev.makeroom.core.queue.QueueTree;
import dev.makeroom.core.queue.QueueUsage;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.makeroom.core.preemption.QueueLawsTest.PROD;
import static dev.makeroom.core.preemption.QueueLawsTest.TEST;
import static dev.makeroom.core.preemption.QueueWorld.pod;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * YuniKorn's preemption-loop cases as sequences: Prod and Test are sibling queues running
 * ReplicaSets of one-CPU pods at the same priority on a full node. Every preemption is enacted
 * (victims go, the pod binds, the ReplicaSet re-creates its victims as pending pods) and every
 * pending pod asks again, until a whole round preempts nothing.
 */
class QueueLoopPreventionTest {

    private static QueueTree tree(long prodMilli, long testMilli) {
        return QueueTree.of(QueueSpec.parent("root", QueueSpec.parent("parent",
                QueueSpec.leaf("prod", Map.of("cpu", prodMilli)), QueueSpec.leaf("test", Map.of("cpu", testMilli)))), null);
    }

    /** The queues' CPU use after the world settles, and every preemption on the way (preemptor's queue → victims). */
    private record Settled(long prod, long test, List<String> preemptions) {
    }

    private static Settled settle(QueueWorld world, QueueTree tree, List<PodInfo> pending) {
        List<String> preemptions = new ArrayList<>();
        List<PodInfo> waiting = new ArrayList<>(pending);
        for (int round = 0; round < 20; round++) {
            boolean any = false;
            for (PodInfo pod : List.copyOf(waiting)) {
                PreemptionDecision decision = world.decide(pod);
                if (decision.outcome() == DecisionOutcome.PREEMPT) {
                    any = true;
                    waiting.remove(pod);
                    List<PodInfo> recreated = world.enact(decision, pod);
                    waiting.addAll(recreated);
                    preemptions.add(pod.queueHint() + " took " + recreated.size() + " from "
                            + recreated.stream().map(PodInfo::queueHint).distinct().toList());
                }
            }
            if (!any) {
                QueueUsage usage = world.usage();
                return new Settled(usage.of(tree.queue(PROD), "cpu"), usage.of(tree.queue(TEST), "cpu"), preemptions);
            }
        }
        throw new AssertionError("still preempting after 20 rounds: " + preemptions);
    }

    /** One full node running Prod's and Test's ReplicaSets. */
    private static QueueWorld world(QueueTree tree, int prodPods, int testPods) {
        return new QueueWorld(tree).node("n", prodPods + testPods)
                .replicas("n", "prod-rs", PROD, 0, prodPods).replicas("n", "test-rs", TEST, 0, testPods);
    }

    private static List<PodInfo> prodReplicas(int count) {
        List<PodInfo> pods = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            pods.add(pod("prod-pending-" + i, PROD, "prod-rs", 0, 1).build());
        }
        return pods;
    }

    @Test
    void case1_prod_takes_one_pod_then_both_queues_sit_above_guarantee_and_nobody_takes_back() {
        QueueTree tree = tree(2500, 2500);
        QueueWorld world = world(tree, 2, 4);

        Settled settled = settle(world, tree, prodReplicas(3));

        assertThat(settled.preemptions()).containsExactly(PROD + " took 1 from [" + TEST + "]");
        assertThat(settled.prod()).isEqualTo(3000).isGreaterThan(2500);
        assertThat(settled.test()).isEqualTo(3000).isGreaterThan(2500);
    }

    @Test
    void case2_test_above_guarantee_but_one_eviction_would_take_it_below_so_nothing_happens() {
        QueueTree tree = tree(3000, 3500);
        QueueWorld world = world(tree, 2, 4);

        Settled settled = settle(world, tree, prodReplicas(2));

        assertThat(settled.preemptions()).isEmpty();
        assertThat(settled.test()).isEqualTo(4000);
    }

    @Test
    void case3_prod_still_below_guarantee_preempts_again_but_never_takes_test_below_its_guarantee() {
        QueueTree tree = tree(5000, 4000);
        QueueWorld world = world(tree, 2, 6);

        Settled settled = settle(world, tree, prodReplicas(4));

        assertThat(settled.preemptions()).containsExactly(
                PROD + " took 1 from [" + TEST + "]", PROD + " took 1 from [" + TEST + "]");
        assertThat(settled.test()).isEqualTo(4000);
        assertThat(settled.prod()).isEqualTo(4000).isLessThan(5000);
    }
}
