package dev.makeroom.core.preemption;

import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.queue.QueuePolicy;
import dev.makeroom.core.queue.QueueSpec;
import dev.makeroom.core.queue.QueueTree;
import dev.makeroom.core.room.InfeasibleReason;
import dev.makeroom.core.room.Protection;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.makeroom.core.preemption.QueueWorld.pod;
import static dev.makeroom.core.preemption.QueueWorld.victims;
import static org.assertj.core.api.Assertions.assertThat;

/** The queue laws of the README's Queues section, one named test each, on the core decision. */
class QueueLawsTest {

    static final String PROD = "root.parent.prod";
    static final String TEST = "root.parent.test";

    /** Prod and Test are siblings under one parent, each guaranteed the given CPUs. */
    static QueueTree siblings(int prodCpus, int testCpus) {
        return QueueTree.of(QueueSpec.parent("root", QueueSpec.parent("parent",
                QueueSpec.leaf("prod", cpus(prodCpus)), QueueSpec.leaf("test", cpus(testCpus)))), null);
    }

    static Map<String, Long> cpus(int n) {
        return Map.of("cpu", n * 1000L);
    }

    @Test
    void law1_a_pinned_daemonset_pod_takes_a_disabled_queues_pod_only_as_the_last_resort() {
        QueueTree tree = QueueTree.of(QueueSpec.parent("root", QueueSpec.leaf("prod", cpus(4)),
                QueueSpec.leaf("locked", null).withPolicy(QueuePolicy.DISABLED)), null);
        QueueWorld world = new QueueWorld(tree).node("n", 2).replicas("n", "db", "root.locked", 0, 2);

        PodInfo ordinary = pod("web", "root.prod", "web", 10, 1).build();
        assertThat(world.decide(ordinary).outcome()).isEqualTo(DecisionOutcome.NO_FEASIBLE_NODE);
        assertThat(QueueWorld.protectionOf(world, ordinary, "db-101")).isEqualTo(Protection.QUEUE_PREEMPTION_DISABLED);

        PodInfo agent = pod("agent", "root.prod", "agent", 10, 1).pinnedNode("n")
                .controller(new OwnerRef("DaemonSet", "agent", "ds-uid")).build();
        PreemptionDecision decision = world.decide(agent);
        assertThat(victims(decision)).hasSize(1);
        assertThat(decision.chosen().get(0).lastResort()).isTrue();
    }

    @Test
    void law2_victims_of_one_queue_count_together_against_its_guarantee() {
        // Test is guaranteed 2 and runs 4: it can give 2, not 3, whichever pods they are
        QueueWorld world = new QueueWorld(siblings(4, 2)).node("n", 4).replicas("n", "t", TEST, 0, 4);

        PreemptionDecision three = world.decide(pod("p", PROD, "p", 0, 3).build());
        assertThat(three.outcome()).isEqualTo(DecisionOutcome.NO_FEASIBLE_NODE);
        assertThat(three.verdicts().get(0).reason()).isEqualTo(InfeasibleReason.QUEUE_GUARANTEE_WOULD_BE_BROKEN);
        assertThat(world.decide(Scenario.kubeDefault(), pod("p", PROD, "p", 0, 3).build()).verdicts().get(0).reason())
                .isEqualTo(InfeasibleReason.QUEUE_GUARANTEE_WOULD_BE_BROKEN);

        assertThat(victims(world.decide(pod("p", PROD, "p", 0, 2).build()))).hasSize(2);
        assertThat(victims(world.decide(Scenario.kubeDefault(), pod("p", PROD, "p", 0, 2).build()))).hasSize(2);
    }

    @Test
    void law2_a_single_pod_larger_than_its_queues_surplus_is_no_candidate() {
        QueueWorld world = new QueueWorld(siblings(4, 2)).node("n", 4)
                .run("n", pod("big", TEST, "big", 0, 3)).run("n", pod("small", TEST, "small", 0, 1));
        PodInfo pending = pod("p", PROD, "p", 0, 1).build();
        assertThat(QueueWorld.protectionOf(world, pending, "big"))
                .isEqualTo(Protection.VICTIM_QUEUE_WOULD_GO_BELOW_GUARANTEE);
        assertThat(victims(world.decide(pending))).containsExactly("small");
    }

    @Test
    void law3_a_pod_never_preempts_pods_of_its_own_application() {
        QueueWorld world = new QueueWorld(siblings(4, 0)).node("n", 2)
                .run("n", pod("same-app-worker", PROD, "spark-1", 0, 1))
                .run("n", pod("other-app-worker", PROD, "spark-2", 0, 1));
        PodInfo driver = pod("driver", PROD, "spark-1", 100, 2).build();
        assertThat(QueueWorld.protectionOf(world, driver, "same-app-worker")).isEqualTo(Protection.SAME_APPLICATION);
        assertThat(world.decide(driver).outcome()).isEqualTo(DecisionOutcome.NO_FEASIBLE_NODE);
        assertThat(victims(world.decide(pod("small-driver", PROD, "spark-1", 100, 1).build())))
                .containsExactly("other-app-worker");
    }

    @Test
    void law4_a_queue_at_its_guarantee_takes_nothing_from_other_queues_but_may_from_itself() {
        // Prod is guaranteed 2 and runs 2 (on m, as important as the pending pod): not below its guarantee
        QueueWorld world = new QueueWorld(siblings(2, 0)).node("m", 2).node("n", 2)
                .replicas("m", "prod-rs", PROD, 10, 2)
                .run("n", pod("test-pod", TEST, "test-rs", 0, 1)).run("n", pod("prod-batch", PROD, "batch", 0, 1));
        PodInfo pending = pod("p", PROD, "web", 10, 2).build();
        assertThat(QueueWorld.protectionOf(world, pending, "test-pod"))
                .isEqualTo(Protection.PREEMPTOR_QUEUE_NOT_BELOW_GUARANTEE);
        assertThat(world.decide(pending).outcome()).isEqualTo(DecisionOutcome.NO_FEASIBLE_NODE);
        // within its own queue plain priority preemption still applies
        assertThat(victims(world.decide(pod("p", PROD, "web", 10, 1).build()))).containsExactly("prod-batch");
    }

    @Test
    void law4_a_queue_without_any_guarantee_never_takes_from_other_queues() {
        QueueWorld world = new QueueWorld(siblings(0, 0)).node("n", 1).run("n", pod("t", TEST, "t", 0, 1));
        assertThat(QueueWorld.protectionOf(world, pod("p", PROD, "p", 0, 1).build(), "t"))
                .isEqualTo(Protection.PREEMPTOR_QUEUE_NOT_BELOW_GUARANTEE);
    }

    @Test
    void law5_a_queue_below_its_guarantee_gives_nothing() {
        QueueWorld world = new QueueWorld(siblings(4, 4)).node("n", 3).replicas("n", "t", TEST, 0, 3);
        PodInfo pending = pod("p", PROD, "p", 0, 1).build();
        assertThat(QueueWorld.protectionOf(world, pending, "t-101")).isEqualTo(Protection.VICTIM_QUEUE_NOT_ABOVE_GUARANTEE);
        assertThat(world.decide(pending).outcome()).isEqualTo(DecisionOutcome.NO_FEASIBLE_NODE);
    }

    @Test
    void law6_equal_priority_is_enough_across_queues_never_higher_and_never_inside_one_queue() {
        QueueWorld world = new QueueWorld(siblings(4, 0)).node("n", 3)
                .run("n", pod("test-equal", TEST, "a", 10, 1))
                .run("n", pod("test-higher", TEST, "b", 11, 1))
                .run("n", pod("prod-equal", PROD, "c", 10, 1));
        PodInfo pending = pod("p", PROD, "p", 10, 1).build();
        assertThat(QueueWorld.protectionOf(world, pending, "test-equal")).isEqualTo(Protection.NONE);
        assertThat(QueueWorld.protectionOf(world, pending, "test-higher")).isEqualTo(Protection.PRIORITY_HIGHER);
        assertThat(QueueWorld.protectionOf(world, pending, "prod-equal")).isEqualTo(Protection.PRIORITY_NOT_LOWER);
        assertThat(victims(world.decide(pending))).containsExactly("test-equal");
    }

    @Test
    void the_delay_holds_back_other_queues_until_the_pod_has_waited_it() {
        QueueTree tree = QueueTree.of(QueueSpec.parent("root",
                QueueSpec.leaf("prod", cpus(4)).withDelay(Duration.ofSeconds(30)), QueueSpec.leaf("test", null)), null);
        QueueWorld world = new QueueWorld(tree).node("n", 2)
                .run("n", pod("test-pod", "root.test", "t", 0, 1)).run("n", pod("prod-batch", "root.prod", "b", 0, 1));
        PodInfo big = pod("p", "root.prod", "web", 10, 2).build();

        PreemptionDecision early = world.pendingFor(Duration.ofSeconds(29)).decide(big);
        assertThat(early.outcome()).isEqualTo(DecisionOutcome.DELAYED_BY_QUEUE);
        assertThat(early.detail()).contains("pending 29s", "30s");
        // its own queue is open at once
        assertThat(victims(world.decide(pod("p", "root.prod", "web", 10, 1).build()))).containsExactly("prod-batch");

        assertThat(victims(world.pendingFor(Duration.ofSeconds(30)).decide(big)))
                .containsExactlyInAnyOrder("test-pod", "prod-batch");
    }

    @Test
    void system_critical_pods_are_not_bound_by_queue_laws() {
        QueueWorld world = new QueueWorld(siblings(0, 4)).node("n", 1).run("n", pod("t", TEST, "t", 0, 1));
        assertThat(victims(world.decide(pod("dns", PROD, "dns", 2_000_000_000, 1).build()))).containsExactly("t");
        assertThat(world.decide(pod("p", PROD, "p", 1_999_999_999, 1).build()).outcome())
                .isEqualTo(DecisionOutcome.NO_FEASIBLE_NODE);
    }

    @Test
    void an_originator_is_evicted_only_when_nothing_else_works() {
        QueueWorld world = new QueueWorld(siblings(8, 0)).node("n", 4)
                .run("n", pod("driver", TEST, "spark", 0, 2).originator(true))
                .run("n", pod("exec-1", TEST, "spark", 0, 1)).run("n", pod("exec-2", TEST, "spark", 0, 1));
        // one victim (the driver) would be fewer, but the executors spare the application's driver
        PreemptionDecision two = world.decide(pod("p", PROD, "p", 0, 2).build());
        assertThat(victims(two)).containsExactlyInAnyOrder("exec-1", "exec-2");
        assertThat(two.chosen().get(0).lastResort()).isFalse();

        PreemptionDecision three = world.decide(pod("p", PROD, "p", 0, 3).build());
        assertThat(victims(three)).contains("driver");
        assertThat(three.chosen().get(0).lastResort()).isTrue();
    }

    @Nested
    class Fences {

        // root: tenant1 (fence) with a and b; fenced (a fenced leaf); system (unfenced); other
        final QueueTree tree = QueueTree.of(QueueSpec.parent("root",
                new QueueSpec("tenant1", null, null, QueuePolicy.FENCE, null,
                        List.of(QueueSpec.leaf("a", cpus(4)), QueueSpec.leaf("b", cpus(0)))),
                QueueSpec.leaf("fenced", cpus(4)).withPolicy(QueuePolicy.FENCE),
                QueueSpec.leaf("system", cpus(4)),
                QueueSpec.leaf("other", null)), null);

        QueueWorld world() {
            return new QueueWorld(tree).node("n", 3)
                    .run("n", pod("b-pod", "root.tenant1.b", "b", 0, 1))
                    .run("n", pod("other-pod", "root.other", "o", 0, 1))
                    .run("n", pod("a-pod", "root.tenant1.a", "a", 10, 1));
        }

        @Test
        void law7_a_fenced_leaf_takes_from_no_other_queue() {
            PodInfo p = pod("p", "root.fenced", "f", 10, 1).build();
            assertThat(QueueWorld.protectionOf(world(), p, "other-pod")).isEqualTo(Protection.OUTSIDE_FENCE);
            assertThat(world().decide(p).outcome()).isEqualTo(DecisionOutcome.NO_FEASIBLE_NODE);
        }

        @Test
        void law7_pods_under_a_fenced_tenant_take_only_inside_it() {
            PodInfo p = pod("p", "root.tenant1.a", "x", 10, 1).build();
            assertThat(QueueWorld.protectionOf(world(), p, "other-pod")).isEqualTo(Protection.OUTSIDE_FENCE);
            assertThat(victims(world().decide(p))).containsExactly("b-pod");
        }

        @Test
        void law7_an_unfenced_queue_takes_from_inside_a_fence_which_is_one_way() {
            PodInfo p = pod("p", "root.system", "s", 10, 2).build();
            assertThat(QueueWorld.protectionOf(world(), p, "b-pod")).isEqualTo(Protection.NONE);
            assertThat(victims(world().decide(p))).containsExactlyInAnyOrder("b-pod", "other-pod");
            // and the tenant cannot take back from the system queue
            PodInfo back = pod("q", "root.tenant1.b", "y", 10, 1).build();
            QueueWorld withSystem = world().run("n", pod("system-pod", "root.system", "s", 0, 1));
            assertThat(QueueWorld.protectionOf(withSystem, back, "system-pod")).isEqualTo(Protection.OUTSIDE_FENCE);
        }
    }
}
