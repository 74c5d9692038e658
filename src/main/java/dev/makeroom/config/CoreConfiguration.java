package dev.makeroom.config;

import dev.makeroom.core.filter.FilterPolicy;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.core.preemption.PreemptionSettings;
import dev.makeroom.core.score.ShieldScorePolicy;
import dev.makeroom.observability.DecisionLog;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;

/** Wires the pure core from {@link MakeroomProperties}. */
@Configuration(proxyBeanMethods = false)
class CoreConfiguration {

    @Bean
    PreemptionEngine preemptionEngine(MakeroomProperties properties) {
        MakeroomProperties.Preemption p = properties.preemption();
        return new PreemptionEngine(new PreemptionSettings(p.strategy(), p.answer(), p.pdb(), p.budget()),
                System::nanoTime);
    }

    /** The wall clock for queue delays; tests put a controllable one first. */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
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
