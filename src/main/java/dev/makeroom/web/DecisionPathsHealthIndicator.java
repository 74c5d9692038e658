package dev.makeroom.web;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/** Part of the readiness group: ready once the decision paths have been warmed ({@link DecisionPathWarmup}). */
@Component
class DecisionPathsHealthIndicator implements HealthIndicator {

    private final DecisionPathWarmup warmup;

    DecisionPathsHealthIndicator(DecisionPathWarmup warmup) {
        this.warmup = warmup;
    }

    @Override
    public Health health() {
        if (!warmup.done()) {
            return Health.outOfService().withDetail("reason", "warming the decision paths").build();
        }
        return Health.up().withDetail("warmupRounds", warmup.rounds()).build();
    }
}
