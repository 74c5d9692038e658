package dev.makeroom.web.json;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.RandomCluster;
import dev.makeroom.core.preemption.AnswerMode;
import dev.makeroom.core.preemption.Candidate;
import dev.makeroom.core.preemption.PreemptionDecision;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.core.preemption.PreemptionSettings;
import dev.makeroom.core.room.PdbMode;
import dev.makeroom.core.room.QueueRules;
import dev.makeroom.core.room.Strategy;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.IntRange;
import dev.makeroom.support.property.Tally;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whatever the cluster, the strategy or the answer mode, a preempt answer never names a node without
 * victims (Kubernetes 1.36 fails the whole preemption on one: "expected at least one victim pod on
 * node"), and every victim it names is a pod bound to that node, which the scheduler finds by UID.
 */
class PreemptAnswerProperties {

    @Property(tries = 400)
    void every_node_answered_has_victims_and_each_is_on_that_node(@ForAll long seed,
                                                                   @ForAll @IntRange(max = 3) int settings) {
        RandomCluster c = RandomCluster.generate(seed);
        PreemptionEngine engine = new PreemptionEngine(new PreemptionSettings(
                settings % 2 == 0 ? Strategy.MINIMAL : Strategy.KUBE_DEFAULT,
                settings < 2 ? AnswerMode.ALL : AnswerMode.BEST, PdbMode.PREFER, Duration.ofSeconds(5)), System::nanoTime);

        PreemptionDecision decision = engine.decide(c.snapshot(), c.pending(), Candidate.onNodes(c.asked()), QueueRules.off());
        Map<String, WireDtos.MetaVictims> answer = PreemptionAnswer.toWire(decision);

        Tally.label("nodes answered").collect(answer.isEmpty() ? "none" : "some");
        Tally.label("nodes answered").coverage(cov -> cov.check("some").percentage(p -> p > 10));
        answer.forEach((node, victims) -> {
            assertThat(victims.pods()).as("seed %d: victims on %s", seed, node).isNotEmpty();
            victims.pods().forEach(v -> {
                PodInfo pod = c.snapshot().pod(v.uid());
                assertThat(pod).as("seed %d: victim %s", seed, v.uid()).isNotNull();
                assertThat(pod.nodeName()).isEqualTo(node);
            });
        });
    }
}
