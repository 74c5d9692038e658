package dev.makeroom.observability;

import dev.makeroom.core.model.ClusterView;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/** Part of the readiness group: makeroom is ready once its cluster view has synced. */
@Component
class ClusterViewHealthIndicator implements HealthIndicator {

    private final ClusterView view;

    ClusterViewHealthIndicator(ClusterView view) {
        this.view = view;
    }

    @Override
    public Health health() {
        if (!view.ready()) {
            return Health.outOfService().withDetail("reason", "the cluster view has not synced yet").build();
        }
        return Health.up().withDetail("nodes", view.snapshot().nodes().size())
                .withDetail("pods", view.snapshot().pods().size()).build();
    }
}
