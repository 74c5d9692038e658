package dev.makeroom.cluster;

import dev.makeroom.mapping.PodGroupKind;
import dev.makeroom.process.OutOfMemoryExit;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;

/**
 * The live view's informers on the objects that state gangs' minimums ({@link PodGroupKind}), one per
 * kind. Most clusters serve few or none of them: a kind the API server does not serve (404), or that
 * makeroom may not list (403), is given up with one line in the log and never holds up readiness; the
 * pods' own marks then state those gangs' minimums. Other failures are retried as every watch's are.
 * A kind served only after makeroom started is watched from its next start.
 */
final class PodGroupWatches {

    private static final Logger log = LoggerFactory.getLogger(PodGroupWatches.class);

    private record Watched(SharedIndexInformer<GenericKubernetesResource> informer,
                           EnqueueingHandler<GenericKubernetesResource> handler) {
    }

    private final List<Watched> watched = new ArrayList<>();

    PodGroupWatches(KubernetesClient lister, Queue<ClusterEvent> queue, long resyncMillis, long page) {
        for (PodGroupKind kind : PodGroupKind.values()) {
            ResourceDefinitionContext context = new ResourceDefinitionContext.Builder().withGroup(kind.group())
                    .withVersion(kind.version()).withPlural(kind.plural()).withKind("PodGroup").withNamespaced(true)
                    .build();
            SharedIndexInformer<GenericKubernetesResource> informer = lister.genericKubernetesResources(context)
                    .inAnyNamespace().withLimit(page).runnableInformer(resyncMillis);
            informer.itemStore(new MetadataItemStore<>(GenericKubernetesResource.class));
            informer.exceptionHandler((started, error) -> retry(kind, error));
            EnqueueingHandler<GenericKubernetesResource> handler = new EnqueueingHandler<>(ClusterEvent.Kind.POD_GROUP,
                    queue, group -> new PodGroupMinimum(kind.gangKey(group), kind.minimum(group)));
            informer.addEventHandler(handler);
            watched.add(new Watched(informer, handler));
        }
    }

    private static boolean retry(PodGroupKind kind, Throwable error) {
        OutOfMemoryExit.exitIfOutOfMemory(error, "podgroup informer");
        int code = statusOf(error);
        if (code == 404 || code == 403) {
            log.info("not watching {}/{} podgroups ({}): gangs of that kind take their minimum from their pods",
                    kind.group(), kind.version(), code == 404 ? "the cluster does not serve them" : "makeroom may not list them");
            return false;
        }
        log.debug("{} podgroup informer failed; retrying: {}", kind.group(), error.toString());
        return true;
    }

    /** The HTTP status the API server answered, wherever fabric8 wrapped it; 0 when there was none. */
    private static int statusOf(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof KubernetesClientException e && e.getCode() > 0) {
                return e.getCode();
            }
        }
        return 0;
    }

    void start() {
        watched.forEach(w -> w.informer().start());
    }

    /** Whether each kind has handed over its first list, or was given up. */
    boolean settled() {
        return watched.stream().allMatch(w -> w.informer().stopped().toCompletableFuture().isDone()
                || w.informer().hasSynced() && w.handler().listed());
    }

    void stop() {
        watched.forEach(w -> w.informer().stop());
    }
}
