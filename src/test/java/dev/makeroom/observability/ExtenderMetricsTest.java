package dev.makeroom.observability;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.preemption.Candidate;
import dev.makeroom.core.preemption.PreemptionDecision;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.core.preemption.PreemptionSettings;
import dev.makeroom.core.preemption.SchedulersChoice;
import dev.makeroom.core.room.QueueRules;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The value counters: what makeroom's answer spared beside the scheduler's own pick over the same candidates. */
class ExtenderMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ExtenderMetrics metrics = new ExtenderMetrics(registry);

    private double count(String name) {
        return registry.get(name).counter().count();
    }

    @Test
    void a_decision_with_fewer_victims_than_the_schedulers_pick_counts_what_it_spared() {
        // n1 is full: a and b (1 cpu each) and c (2 cpus), all of priority 10. The scheduler offers n1
        // with a and b as its victims; makeroom needs only c
        ClusterSnapshot snapshot = ClusterSnapshot.builder()
                .node("n1", Map.of(), Resources.of("cpu", 4000, "pods", 10))
                .node("n2", Map.of(), Resources.of("cpu", 2000, "pods", 10))
                .pod(PodInfo.builder("a").nodeName("n1").priority(10).requests(Resources.of("cpu", 1000)).build())
                .pod(PodInfo.builder("b").nodeName("n1").priority(10).requests(Resources.of("cpu", 1000)).build())
                .pod(PodInfo.builder("c").nodeName("n1").priority(10).requests(Resources.of("cpu", 2000)).build())
                .pod(PodInfo.builder("d").nodeName("n2").priority(5).requests(Resources.of("cpu", 1000)).build())
                .pod(PodInfo.builder("e").nodeName("n2").priority(5).requests(Resources.of("cpu", 1000)).build())
                .build();
        PodInfo pending = PodInfo.builder("p").priority(100).requests(Resources.of("cpu", 2000)).build();
        List<Candidate> offered = List.of(new Candidate("n1", List.of("a", "b")));
        PreemptionDecision decision = engine().decide(snapshot, pending, offered, QueueRules.off());
        SchedulersChoice schedulers = decision.schedulers();
        assertThat(schedulers).isEqualTo(new SchedulersChoice("n1", 2, 20));
        assertThat(decision.chosen().get(0).victims().victims()).extracting(PodInfo::uid).containsExactly("c");

        metrics.recordBeside(schedulers, decision.chosen().get(0), 3_600_000); // 1 h lost
        assertThat(count("makeroom.preemption.work.added")).isEqualTo(3600.0); // the scheduler's pick: no start times, 0 h
        assertThat(count("makeroom.preemption.compared")).isEqualTo(1);
        assertThat(count("makeroom.preemption.victims.saved")).isEqualTo(1);
        assertThat(count("makeroom.preemption.victims.added")).isZero();
        assertThat(count("makeroom.preemption.victim.priority.saved")).isEqualTo(10);

        // the other way round: makeroom evicts d and e on n2 where the heuristic's pick took one pod of
        // priority 30 (say, one a budget protects): one victim more, and nothing spared in priority
        PreemptionDecision onN2 = engine().decide(snapshot, pending, List.of(new Candidate("n2", List.of("d", "e"))),
                QueueRules.off());
        metrics.recordBeside(new SchedulersChoice("n3", 1, 30, 9_000_000), onN2.chosen().get(0), 1_800_000);
        assertThat(count("makeroom.preemption.work.saved")).isEqualTo(7200.0); // 2.5 h - 0.5 h
        assertThat(count("makeroom.preemption.compared")).isEqualTo(2);
        assertThat(count("makeroom.preemption.victims.added")).isEqualTo(1);
        assertThat(count("makeroom.preemption.victims.saved")).isEqualTo(1);
        assertThat(count("makeroom.preemption.victim.priority.saved")).isEqualTo(30); // 10 + (30 - 10)
    }

    private static PreemptionEngine engine() {
        return new PreemptionEngine(PreemptionSettings.DEFAULTS, System::nanoTime);
    }
}
