package dev.makeroom.cluster;

import dev.makeroom.mapping.PodGroupKind;
import dev.makeroom.process.OutOfMemoryExit;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Queue;
import java.util.concurrent.TimeUnit;

/**
 * The live view's informers on the objects that state gangs' minimums ({@link PodGroupKind}), one per
 * kind. Most clusters serve few or none of them, so each kind is first asked for one object, off the
 * starting thread: a kind the API server does not serve (404), or that makeroom may not list (403), is
 * left unwatched with one line in the log and never holds up readiness (the pods' own marks then state
 * those gangs' minimums); one that answers is watched; other failures are asked again, as every watch
 * retries. A kind served only after makeroom started is watched from its next start.
 */
final class PodGroupWatches {

    private static final Logger log = LoggerFactory.getLogger(PodGroupWatches.class);
    private static final long RETRY_MILLIS = 2_000;

    /** One kind: undecided, given up, or watched through {@code informer}. */
    private static final class Watched {
        final PodGroupKind kind;
        final ResourceDefinitionContext context;
        volatile boolean decided;
        volatile SharedIndexInformer<GenericKubernetesResource> informer; // null: given up (once decided)
        volatile EnqueueingHandler<GenericKubernetesResource> handler;

        Watched(PodGroupKind kind) {
            this.kind = kind;
            this.context = new ResourceDefinitionContext.Builder().withGroup(kind.group()).withVersion(kind.version())
                    .withPlural(kind.plural()).withKind("PodGroup").withNamespaced(true).build();
        }
    }

    private final KubernetesClient lister;
    private final Queue<ClusterEvent> queue;
    private final long resyncMillis;
    private final long page;
    private final List<Watched> watched = new ArrayList<>();
    private final Thread starter;
    private volatile boolean running = true;

    PodGroupWatches(KubernetesClient lister, Queue<ClusterEvent> queue, long resyncMillis, long page) {
        this.lister = lister;
        this.queue = queue;
        this.resyncMillis = resyncMillis;
        this.page = page;
        for (PodGroupKind kind : PodGroupKind.values()) {
            watched.add(new Watched(kind));
        }
        this.starter = new Thread(this::decideEach, "makeroom-podgroup-kinds");
        this.starter.setDaemon(true);
    }

    void start() {
        starter.start();
    }

    /** Asks each kind once for an object until it answers or says it is not there for makeroom. */
    private void decideEach() {
        List<Watched> undecided = new ArrayList<>(watched);
        while (running && !undecided.isEmpty()) {
            undecided.removeIf(this::decide);
            if (!undecided.isEmpty()) {
                try {
                    TimeUnit.MILLISECONDS.sleep(RETRY_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** Whether {@code w} is decided now: watched, or given up. */
    private boolean decide(Watched w) {
        try {
            lister.genericKubernetesResources(w.context).inAnyNamespace()
                    .list(new ListOptionsBuilder().withLimit(1L).build());
        } catch (KubernetesClientException e) {
            int code = e.getCode();
            if (code != 404 && code != 403) {
                log.debug("asking for {} podgroups failed; asking again: {}", w.kind.group(), e.toString());
                return false;
            }
            log.info("not watching {}/{} podgroups ({}): gangs of that kind take their minimum from their pods",
                    w.kind.group(), w.kind.version(), code == 404 ? "the cluster does not serve them"
                            : "makeroom may not list them");
            w.decided = true;
            return true;
        }
        watch(w);
        w.decided = true;
        return true;
    }

    private void watch(Watched w) {
        SharedIndexInformer<GenericKubernetesResource> informer = lister.genericKubernetesResources(w.context)
                .inAnyNamespace().withLimit(page).runnableInformer(resyncMillis);
        informer.itemStore(new MetadataItemStore<>(GenericKubernetesResource.class));
        informer.exceptionHandler((started, error) -> {
            OutOfMemoryExit.exitIfOutOfMemory(error, "podgroup informer");
            log.debug("{} podgroup informer failed; retrying: {}", w.kind.group(), error.toString());
            return running;
        });
        PodGroupKind kind = w.kind;
        EnqueueingHandler<GenericKubernetesResource> handler = new EnqueueingHandler<>(ClusterEvent.Kind.POD_GROUP,
                queue, group -> new PodGroupMinimum(kind.gangKey(group), kind.minimum(group)));
        informer.addEventHandler(handler);
        w.handler = handler;
        w.informer = informer;
        if (running) {
            informer.start();
        }
    }

    /** Whether each kind was given up, or is watched and has handed over its first list. */
    boolean settled() {
        for (Watched w : watched) {
            SharedIndexInformer<GenericKubernetesResource> informer = w.informer;
            if (!w.decided || informer != null && !(informer.hasSynced() && w.handler.listed())) {
                return false;
            }
        }
        return true;
    }

    /** The systems ({@code Gang.system}) of the kinds watched whose first list is handed over: all their groups known. */
    Set<String> systemsListed() {
        Set<String> listed = new HashSet<>();
        for (Watched w : watched) {
            if (w.informer != null && w.handler.listed()) {
                listed.add(w.kind.system());
            }
        }
        return listed;
    }

    /** The kinds watched (answered when asked), so far. */
    List<PodGroupKind> watching() {
        return watched.stream().filter(w -> w.informer != null).map(w -> w.kind).toList();
    }

    void stop() {
        running = false;
        starter.interrupt();
        for (Watched w : watched) {
            if (w.informer != null) {
                w.informer.stop();
            }
        }
    }
}
