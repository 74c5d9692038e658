package dev.makeroom.observability;

import dev.makeroom.core.model.ClusterView;
import dev.makeroom.cluster.KubernetesClusterView;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.stereotype.Component;

import java.util.Map;
import java.util.function.ToDoubleFunction;

/** Gauges over the cluster view: objects by kind and, for a live view, each informer's staleness. */
@Component
class ClusterViewMetrics implements InitializingBean {

    private final ClusterView view;
    private final MeterRegistry registry;

    ClusterViewMetrics(ClusterView view, MeterRegistry registry) {
        this.view = view;
        this.registry = registry;
    }

    @Override
    public void afterPropertiesSet() {
        Map<String, ToDoubleFunction<ClusterView>> counts = Map.of(
                "node", v -> v.snapshot().nodes().size(),
                "pod", v -> v.snapshot().pods().size(),
                "poddisruptionbudget", v -> v.snapshot().budgets().size(),
                "priorityclass", v -> v.snapshot().priorityClasses().size(),
                "namespace", v -> v.snapshot().namespaceAnnotations().size());
        counts.forEach((kind, count) -> Gauge.builder("makeroom.cluster.objects", view, count)
                .description("Objects in makeroom's cluster view").tag("kind", kind).register(registry));
        Gauge.builder("makeroom.cluster.view.ready", view, v -> v.ready() ? 1 : 0)
                .description("1 once the cluster view has synced").register(registry);
        if (view instanceof KubernetesClusterView live) {
            for (String kind : live.watchedKinds()) {
                Gauge.builder("makeroom.informer.stale", live, l -> l.staleSeconds(kind))
                        .description("Seconds the view of this kind may be behind the API: about 0 while its watch "
                                + "is up and applied, growing while it is down").baseUnit("seconds")
                        .tag("kind", KubernetesClusterView.kindLabel(kind)).register(registry);
                for (String outcome : live.notificationOutcomes()) {
                    FunctionCounter.builder("makeroom.informer.notifications", live, l -> l.notifications(kind, outcome))
                            .description("Informer notifications by what they meant to the view (unchanged: a "
                                    + "resync or a relist that found nothing new; replaced: deleted and recreated "
                                    + "under one name)")
                            .tag("kind", KubernetesClusterView.kindLabel(kind)).tag("outcome", outcome.toLowerCase()).register(registry);
                }
            }
        }
    }
}
