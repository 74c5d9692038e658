package dev.makeroom.config;

import dev.makeroom.core.filter.FilterPolicy;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.core.preemption.HeldRooms;
import dev.makeroom.core.preemption.PreemptionPipeline;
import dev.makeroom.core.preemption.PreemptionsInFlight;
import dev.makeroom.core.preemption.PreemptionSettings;
import dev.makeroom.core.score.ShieldScorePolicy;
import dev.makeroom.cluster.ConfigMapFeed;
import dev.makeroom.observability.DecisionLog;
import dev.makeroom.queueconfig.QueueConfigService;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;

/** Wires the pure core from {@link MakeroomProperties}. */
@Configuration(proxyBeanMethods = false)
class CoreConfiguration {

    /** The engine; the wall clock tells how long victims have run, for the work they would lose. */
    @Bean
    PreemptionEngine preemptionEngine(MakeroomProperties properties, Clock clock) {
        MakeroomProperties.Preemption p = properties.preemption();
        return new PreemptionEngine(new PreemptionSettings(p.strategy(), p.answer(), p.pdb(), p.budget(),
                p.objective(), p.workPrice()), System::nanoTime, clock);
    }

    /** This replica's preemptions whose victims are still terminating: no second set for the same pod meanwhile. */
    @Bean
    PreemptionsInFlight preemptionsInFlight() {
        return new PreemptionsInFlight();
    }

    /** The one way every preemption is decided: the extender's preempt, the warm-up, simulate, --why, the page. */
    @Bean
    PreemptionPipeline preemptionPipeline(PreemptionEngine engine, PreemptionsInFlight inFlight, HeldRooms held) {
        return new PreemptionPipeline(engine, inFlight, held, System::nanoTime);
    }

    /** The wall clock for queue delays and decision times; tests put a controllable one first. */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    QueueConfigService queueConfigService(MakeroomProperties properties, ConfigMapFeed feed, Clock clock) {
        return new QueueConfigService(properties.queues().file(), properties.queues().config(), feed, clock);
    }

    @Bean
    DecisionLog decisionLog(MakeroomProperties properties) {
        return new DecisionLog(properties.debug().decisions());
    }

    @Bean
    FilterPolicy filterPolicy() {
        return new FilterPolicy();
    }

    @Bean
    ShieldScorePolicy scorePolicy() {
        return new ShieldScorePolicy();
    }
}
