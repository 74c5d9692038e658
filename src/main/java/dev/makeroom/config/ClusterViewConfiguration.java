package dev.makeroom.config;

import dev.makeroom.core.model.ClusterView;
import dev.makeroom.cluster.ConfigMapFeed;
import dev.makeroom.cluster.KeptNodeReleases;
import dev.makeroom.core.preemption.HeldRooms;
import dev.makeroom.cluster.AggregatedApiListener;
import dev.makeroom.cluster.DebugAccess;
import dev.makeroom.cluster.FrontProxy;
import dev.makeroom.cluster.GangRoomHolds;
import dev.makeroom.cluster.KubernetesClusterView;
import dev.makeroom.cluster.PreemptionEvents;
import dev.makeroom.cluster.LiveViewSettings;
import dev.makeroom.cluster.SnapshotFileClusterView;
import dev.makeroom.core.preemption.GangRooms;
import dev.makeroom.core.score.AvoidList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;

/**
 * Chooses and starts the cluster view (a snapshot file, or the live API through informers) and offers
 * what else it learns beside it.
 */
@Configuration(proxyBeanMethods = false)
class ClusterViewConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ClusterViewConfiguration.class);
    private static final Path SERVICE_ACCOUNT_NAMESPACE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

    @Bean(destroyMethod = "close")
    ClusterView clusterView(MakeroomProperties properties, ObjectProvider<KubernetesClient> clients) {
        MakeroomProperties.Cluster cluster = properties.cluster();
        boolean insideCluster = System.getenv("KUBERNETES_SERVICE_HOST") != null;
        if (cluster.effectiveSource(insideCluster) == MakeroomProperties.Source.SNAPSHOT) {
            String file = cluster.snapshot();
            if (file == null || file.isBlank()) {
                throw new IllegalStateException("makeroom.cluster.source=snapshot needs "
                        + "makeroom.cluster.snapshot=<path to a file of Kubernetes objects>");
            }
            log.info("cluster view: snapshot file {}", file);
            return new SnapshotFileClusterView(Path.of(file), cluster.servedVersion());
        }
        KubernetesClient client = clients.getIfAvailable(ClusterViewConfiguration::defaultClient);
        String namespace = cluster.configMapNamespace() != null ? cluster.configMapNamespace() : ownNamespace();
        log.info("cluster view: Kubernetes API at {}, config map {}/{}", client.getMasterUrl(), namespace,
                cluster.configMapName());
        return new KubernetesClusterView(client, new LiveViewSettings(cluster.resync(), namespace,
                cluster.configMapName(), cluster.evictionMemory(), cluster.servedVersion())).start();
    }

    /** makeroom's ConfigMap, where the live view watches it; a snapshot file has none. */
    @Bean
    ConfigMapFeed configMapFeed(ClusterView view) {
        return view instanceof KubernetesClusterView live ? live.configMapFeed() : ConfigMapFeed.NONE;
    }

    /** Nodes prioritize keeps replacement pods away from; only the live view sees kubelet evictions. */
    @Bean
    AvoidList avoidList(ClusterView view) {
        return view instanceof KubernetesClusterView live ? live.recentEvictions() : AvoidList.NONE;
    }

    /**
     * The room found for a gang's other waiting members, held on their nodes where there is an API and
     * makeroom.preemption.gang-hold asks for it.
     */
    @Bean
    GangRooms gangRooms(MakeroomProperties properties, ClusterView view, Clock clock) {
        return !properties.preemption().gangHold().isZero() && view instanceof KubernetesClusterView live
                ? new GangRoomHolds(live.client(), clock, properties.preemption().gangHold()) : GangRooms.NONE;
    }

    /** Kept nodes given back to pods that need them, where there is an API to untaint them. */
    @Bean
    HeldRooms heldRooms(ClusterView view, Clock clock) {
        return view instanceof KubernetesClusterView live ? new KeptNodeReleases(live.client(), clock) : HeldRooms.NONE;
    }

    /** Events on preemptors, where there is an API to write them to and they are wanted. */
    @Bean(destroyMethod = "close")
    PreemptionEvents preemptionEvents(MakeroomProperties properties, ClusterView view, Clock clock) {
        MakeroomProperties.Events events = properties.events();
        return events.enabled() && view instanceof KubernetesClusterView live
                ? new PreemptionEvents(live.client(), clock, events.quietFor(), events.perSecond())
                : PreemptionEvents.off();
    }

    /**
     * Who may use the debug API: anyone, or (makeroom.debug.auth) whom the API server authenticates and
     * authorizes, asked through the live view's client (else fabric8's defaults).
     */
    @Bean
    DebugAccess debugAccess(MakeroomProperties properties, ClusterView view, ObjectProvider<KubernetesClient> clients,
                            Clock clock) {
        if (!properties.debug().auth()) {
            return DebugAccess.OPEN;
        }
        return DebugAccess.reviewedBy(reviewingClient(view, clients), clock);
    }

    /**
     * The debug API's aggregation port (makeroom.debug.aggregation), when one is set: it trusts the front
     * proxy the API server publishes, read through the same client as the access reviews.
     */
    @Bean
    AggregatedApiListener aggregatedApiListener(MakeroomProperties properties, ClusterView view,
                                                ObjectProvider<KubernetesClient> clients, Clock clock) {
        MakeroomProperties.Aggregation aggregation = properties.debug().aggregation();
        if (aggregation.port() == 0) {
            return AggregatedApiListener.OFF;
        }
        return new AggregatedApiListener(aggregation.port(), Path.of(aggregation.certificateFile()),
                Path.of(aggregation.keyFile()), FrontProxy.of(reviewingClient(view, clients), clock));
    }

    /** The API the debug API's reviews ask: the live view's, else a KubernetesClient bean, else fabric8's defaults. */
    private static KubernetesClient reviewingClient(ClusterView view, ObjectProvider<KubernetesClient> clients) {
        return view instanceof KubernetesClusterView live ? live.client()
                : clients.getIfAvailable(ClusterViewConfiguration::defaultClient);
    }

    /** fabric8's defaults (in-cluster service account, else kubeconfig), always on the JDK HTTP client. */
    static KubernetesClient defaultClient() {
        return new KubernetesClientBuilder().withHttpClientFactory(new JdkHttpClientFactory()).build();
    }

    private static String ownNamespace() {
        try {
            return Files.isReadable(SERVICE_ACCOUNT_NAMESPACE)
                    ? Files.readString(SERVICE_ACCOUNT_NAMESPACE).trim() : "makeroom-system";
        } catch (IOException e) {
            return "makeroom-system";
        }
    }
}
