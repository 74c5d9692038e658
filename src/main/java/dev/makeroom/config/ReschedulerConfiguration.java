package dev.makeroom.config;

import dev.makeroom.cluster.ApiEvictor;
import dev.makeroom.core.model.ClusterView;
import dev.makeroom.cluster.ConfigMapFeed;
import dev.makeroom.cluster.ConfigMapWatch;
import dev.makeroom.cluster.KubernetesClusterView;
import dev.makeroom.cluster.Leadership;
import dev.makeroom.cluster.LeaseLeadership;
import dev.makeroom.cluster.ReplicaName;
import dev.makeroom.core.preemption.PreemptionPipeline;
import dev.makeroom.core.rounds.Evictor;
import dev.makeroom.core.rounds.NodeTaints;
import dev.makeroom.core.rounds.RoomHold;
import dev.makeroom.queueconfig.Queues;
import dev.makeroom.rescheduler.ActingGate;
import dev.makeroom.rescheduler.EnginePreemptionCheck;
import dev.makeroom.rescheduler.NoApi;
import dev.makeroom.rescheduler.Rescheduler;
import dev.makeroom.rescheduler.ReschedulerConfigService;
import dev.makeroom.rescheduler.ReschedulerMetrics;
import dev.makeroom.rescheduler.ReschedulerMode;
import dev.makeroom.rescheduler.SeenHolds;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.ContextClosedEvent;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Wires the rescheduler. Disabled, it only answers the debug API's dry runs from the application's
 * document and touches nothing in the cluster. Enabled against the API, it watches its ConfigMap and
 * campaigns for the Lease; in {@code evict} mode the leader evicts, only while this replica serves the
 * extender verbs and reports Ready (the {@link ActingGate}), and stops before makeroom stops serving.
 */
@Configuration(proxyBeanMethods = false)
class ReschedulerConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ReschedulerConfiguration.class);
    // how long a written hold may take to come back through the watch before nothing is evicted for it
    private static final Duration HOLD_SEEN_WITHIN = Duration.ofSeconds(5);

    @Bean(destroyMethod = "close")
    Rescheduler rescheduler(MakeroomProperties properties, ClusterView view, Clock clock, MeterRegistry registry,
                            PreemptionPipeline pipeline, Queues queues, ActingGate gate) {
        MakeroomProperties.Rescheduler settings = properties.rescheduler();
        List<AutoCloseable> parts = new ArrayList<>();
        ConfigMapFeed feed = ConfigMapFeed.NONE;
        Leadership leading = Leadership.SOLE; // a snapshot file: this process is the only one
        NoApi none = new NoApi();
        Evictor evictor = none;
        RoomHold hold = none;
        NodeTaints taints = none;
        if (settings.enabled() && view instanceof KubernetesClusterView live) {
            ConfigMapWatch watch = new ConfigMapWatch(live.client(), live.namespace(), settings.configMapName());
            parts.add(watch);
            feed = watch.feed();
            LeaseLeadership lease = new LeaseLeadership(live.client(), live.namespace(), settings.lease(), ReplicaName.leaseIdentity())
                    .start();
            parts.add(lease);
            leading = lease;
            ApiEvictor api = new ApiEvictor(live.client(), clock, settings.avoidFor());
            parts.add(api);
            evictor = api;
            hold = new SeenHolds(api, view, HOLD_SEEN_WITHIN);
            taints = api;
        }
        ReschedulerConfigService config = new ReschedulerConfigService(settings.file(), settings.config(), feed, clock);
        ReschedulerMetrics metrics = new ReschedulerMetrics(registry);
        metrics.configFailures(config);
        Rescheduler rescheduler = new Rescheduler(settings.mode(), view, config, evictor, hold, taints, leading, clock, System::nanoTime,
                metrics, new EnginePreemptionCheck(pipeline, queues, clock), parts, settings.landingFor(), gate);
        if (settings.enabled()) {
            metrics.leader(leading);
            rescheduler.start(settings.interval());
            if (settings.mode() == ReschedulerMode.EVICT && !(view instanceof KubernetesClusterView)) {
                log.warn("rescheduler: evict mode on a snapshot file can only plan");
            }
        }
        return rescheduler;
    }

    /**
     * On shutdown the rescheduler stops acting first (a round under way ends), then the web server stops
     * serving: the context-closed event comes before the lifecycle stops Tomcat.
     */
    @Bean
    ApplicationListener<ContextClosedEvent> reschedulerStopsBeforeServing(Rescheduler rescheduler) {
        return event -> rescheduler.stopActing();
    }
}
