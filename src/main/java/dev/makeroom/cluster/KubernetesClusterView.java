package dev.makeroom.cluster;

import dev.makeroom.core.model.ClusterView;
import dev.makeroom.mapping.LeanReading;
import dev.makeroom.mapping.ObjectNames;
import dev.makeroom.mapping.PodGroupKind;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.makeroom.process.OutOfMemoryExit;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.score.AvoidList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The live view: fabric8 SharedInformers on nodes, pods, PDBs, PriorityClasses, namespaces,
 * makeroom's ConfigMap, the gangs' PodGroups where served ({@link PodGroupWatches}) and DRA's
 * ResourceSlices, DeviceClasses and ResourceClaims where {@code resource.k8s.io/v1} is served, through a
 * client of the view's own that skips what no mapper reads ({@link LeanReading}). Handlers only
 * enqueue (O(1), never blocking); one applier thread applies events in batches and publishes a new
 * immutable snapshot per batch (during the first sync, at most twice a second). Requests read
 * whichever snapshot was last published, so they never see a half-applied batch.
 *
 * <p>fabric8 relists on 410 Gone and rewatches with backoff on its own; meanwhile the last
 * published snapshot keeps serving. The applier logs one WARN when a watch is lost and one INFO
 * when all are back.
 */
public final class KubernetesClusterView implements ClusterView, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KubernetesClusterView.class);
    private static final int MAX_BATCH = 10_000;
    // Until the first sync is done nothing is decided from the view, and publishing each of its
    // small batches copied most of the snapshot's pod chunks each time (a quarter of a first
    // sync's CPU): until then a batch is published at most this often, and at readiness.
    private static final long SYNCING_PUBLISH_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    // lists come in pages of this many objects: a first sync never holds a whole cluster's JSON or objects
    private static final long LIST_PAGE = 500;
    private static final String NO_DEVICES = "the API server serves no resource.k8s.io/v1";

    private final KubernetesClient client;
    private final KubernetesClient lister; // the client's configuration, reading leanly (LeanReading)
    private final LiveViewSettings settings;
    private final EvictionMemory evictions;
    private final LiveClusterState state;
    private final BlockingQueue<ClusterEvent> queue = new LinkedBlockingQueue<>();
    private final Map<ClusterEvent.Kind, SharedIndexInformer<? extends HasMetadata>> informers =
            new EnumMap<>(ClusterEvent.Kind.class);
    private final Map<ClusterEvent.Kind, EnqueueingHandler<?>> handlers = new EnumMap<>(ClusterEvent.Kind.class);
    private final ViewFreshness freshness = new ViewFreshness(System.nanoTime());
    private final Thread applier;
    private final ServedVersion version;
    private PodGroupWatches podGroups;

    private volatile ClusterSnapshot snapshot = ClusterSnapshot.EMPTY;
    private final ConfigDataFanout configData = new ConfigDataFanout();
    private volatile boolean ready;
    private volatile boolean running = true;
    private long outageSinceNanos = -1;
    private long publishedAtNanos = Long.MIN_VALUE / 2; // far enough back that the first batch is published
    private boolean unpublished;                        // applied events not yet in the published snapshot
    private final Set<ClusterEvent.Kind> everWatched = EnumSet.noneOf(ClusterEvent.Kind.class);

    public KubernetesClusterView(KubernetesClient client, LiveViewSettings settings) {
        this.client = client;
        this.lister = new KubernetesClientBuilder().withConfig(client.getConfiguration())
                .withHttpClientFactory(new JdkHttpClientFactory())
                .withKubernetesSerialization(LeanReading.serialization()).build();
        this.settings = settings;
        this.evictions = new EvictionMemory(settings.evictionMemory(), Ticker.systemTicker());
        this.state = new LiveClusterState(evictions);
        this.version = new ServedVersion(client, settings.version());
        this.applier = new Thread(this::applyLoop, "makeroom-cluster-view");
        this.applier.setDaemon(true);
    }

    /** Starts watching; returns at once. {@link #ready()} turns true once every informer has synced. */
    public KubernetesClusterView start() {
        long resync = settings.resync().toMillis(); // 0: none; the view is event-driven
        watch(ClusterEvent.Kind.NODE, lister.nodes().withLimit(LIST_PAGE).runnableInformer(resync));
        watch(ClusterEvent.Kind.POD, lister.pods().inAnyNamespace().withLimit(LIST_PAGE).runnableInformer(resync),
                LeanPod::of);
        watch(ClusterEvent.Kind.PDB, lister.policy().v1().podDisruptionBudget().inAnyNamespace().withLimit(LIST_PAGE)
                .runnableInformer(resync));
        watch(ClusterEvent.Kind.PRIORITY_CLASS, lister.scheduling().v1().priorityClasses().runnableInformer(resync));
        watch(ClusterEvent.Kind.NAMESPACE, lister.namespaces().runnableInformer(resync));
        watch(ClusterEvent.Kind.CONFIG_MAP, lister.configMaps().inNamespace(settings.configMapNamespace())
                .withName(settings.configMapName()).runnableInformer(resync));
        if (servesDevices()) {
            watch(ClusterEvent.Kind.RESOURCE_SLICE, lister.resources(ResourceSlice.class).withLimit(LIST_PAGE)
                    .runnableInformer(resync));
            watch(ClusterEvent.Kind.DEVICE_CLASS, lister.resources(DeviceClass.class).runnableInformer(resync));
            watch(ClusterEvent.Kind.RESOURCE_CLAIM, lister.resources(ResourceClaim.class).inAnyNamespace()
                    .withLimit(LIST_PAGE).runnableInformer(resync));
            log.info("devices: watching ResourceSlices, DeviceClasses and ResourceClaims (resource.k8s.io/v1)");
        } else {
            state.devicesNotServed(NO_DEVICES);
            log.info("devices: not modelled ({})", NO_DEVICES);
        }
        podGroups = new PodGroupWatches(lister, queue, resync, LIST_PAGE);
        version.start();
        applier.start();
        informers.values().forEach(SharedIndexInformer::start);
        podGroups.start();
        return this;
    }

    /**
     * Whether the API server serves {@code resource.k8s.io/v1} (1.34 and later; 1.32 serves at most
     * v1beta1, and only when switched on, which makeroom does not read): asked, never guessed.
     */
    private boolean servesDevices() {
        try {
            var group = client.getApiGroup("resource.k8s.io");
            boolean served = group != null && group.getVersions() != null
                    && group.getVersions().stream().anyMatch(v -> "v1".equals(v.getVersion()));
            if (served) {
                // an informer that may not list retries for ever, and the view would never be ready
                var one = new ListOptionsBuilder().withLimit(1L).build();
                client.resources(ResourceSlice.class).list(one);
                client.resources(DeviceClass.class).list(one);
                client.resources(ResourceClaim.class).inAnyNamespace().list(one);
            }
            return served;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 403) {
                log.warn("devices: not modelled: makeroom may not list resourceslices, deviceclasses and resourceclaims"
                        + " (grant get, list, watch on resource.k8s.io; the chart's ClusterRole does)");
            } else {
                log.info("devices: could not ask the API server about resource.k8s.io/v1: {}", e.getMessage());
            }
            return false;
        } catch (RuntimeException e) {
            log.info("devices: could not ask the API server which resource.k8s.io versions it serves: {}", e.getMessage());
            return false;
        }
    }

    /** Whether devices are modelled: the server serves resource.k8s.io/v1 and the view watches it. */
    public boolean devicesWatched() {
        return informers.containsKey(ClusterEvent.Kind.RESOURCE_SLICE);
    }

    private <T extends HasMetadata> void watch(ClusterEvent.Kind kind, SharedIndexInformer<T> informer) {
        watch(kind, informer, object -> object);
    }

    private <T extends HasMetadata> void watch(ClusterEvent.Kind kind, SharedIndexInformer<T> informer,
                                               Function<T, Object> lean) {
        // The informer's own cache keeps only keys, resourceVersions and UIDs: makeroom's state
        // holds what decisions need, and full Pod objects would cost gigabytes at 150,000 pods.
        informer.itemStore(new MetadataItemStore<>(informer.getApiTypeClass()));
        // fabric8 gives up on an informer whose first list or watch fails (a 410 on the first watch,
        // a 500 on the first list); makeroom must keep trying, with fabric8's backoff, until it syncs.
        informer.exceptionHandler((started, error) -> {
            OutOfMemoryExit.exitIfOutOfMemory(error, kind + " informer"); // not a reason to retry
            log.debug("{} informer failed ({}started); retrying: {}", kind, started ? "" : "not yet ", error.toString());
            return true;
        });
        EnqueueingHandler<T> handler = new EnqueueingHandler<>(kind, queue, lean);
        informer.addEventHandler(handler);
        handlers.put(kind, handler);
        informers.put(kind, informer);
    }

    private void applyLoop() {
        while (running) {
            try {
                ClusterEvent first = queue.poll(1, TimeUnit.SECONDS);
                long drainedAt = System.nanoTime();
                boolean caughtUp = true;
                if (first != null) {
                    List<ClusterEvent> batch = new ArrayList<>();
                    batch.add(first);
                    caughtUp = queue.drainTo(batch, MAX_BATCH) < MAX_BATCH; // else more may wait from before drainedAt
                    batch.forEach(this::applySafely);
                    unpublished = true;
                }
                if (state.version(version.known())) {
                    unpublished = true;
                }
                if (state.gangSystemsWithGroups(podGroups.systemsListed())) {
                    unpublished = true;
                }
                // while syncing, a quiet second publishes what waits too
                if (unpublished && (ready || first == null || drainedAt - publishedAtNanos >= SYNCING_PUBLISH_INTERVAL_NANOS)) {
                    publish(drainedAt);
                }
                checkReady(drainedAt);
                checkWatches(caughtUp && !unpublished ? drainedAt : Long.MIN_VALUE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                log.error("cluster view applier failed; keeping the last snapshot", e);
            }
        }
    }

    private void applySafely(ClusterEvent event) {
        try {
            state.apply(event);
        } catch (RuntimeException e) {
            log.warn("ignoring a {} makeroom cannot read ({}): {}", event.kind(), name(event.payload()), e.getMessage());
        }
    }

    private static String name(Object payload) {
        return payload instanceof LeanPod lean ? lean.info().namespace() + "/" + lean.info().name()
                : ObjectNames.of((HasMetadata) payload);
    }

    private void publish(long drainedAt) {
        snapshot = state.publish();
        configData.publish(state.configData());
        publishedAtNanos = drainedAt;
        unpublished = false;
    }

    /** Ready once every informer has synced, handed over all of its first list, and all of it is published. */
    private void checkReady(long drainedAt) {
        // in this order: once every list is handed over, an empty queue means all of it is applied
        if (!ready && informers.values().stream().allMatch(SharedIndexInformer::hasSynced)
                && handlers.values().stream().allMatch(EnqueueingHandler::listed) && podGroups.settled()
                && queue.isEmpty()) {
            publish(drainedAt);
            ready = true;
            log.info("cluster view synced: {} nodes, {} pods", snapshot.nodes().size(), snapshot.pods().size());
        }
    }

    /**
     * Kinds whose watch is up are current as of {@code drainedAt}: every event delivered before it is
     * applied ({@code Long.MIN_VALUE}: not known, a backlog remains). One WARN when a watch that was up goes down, one INFO when all are up again; not one per retry.
     */
    private void checkWatches(long drainedAt) {
        List<ClusterEvent.Kind> lost = new ArrayList<>();
        informers.forEach((kind, informer) -> {
            if (isWatching(informer)) {
                freshness.current(kind, drainedAt);
                everWatched.add(kind);
            } else if (everWatched.contains(kind)) {
                lost.add(kind);
            }
        });
        if (!lost.isEmpty() && outageSinceNanos < 0) {
            outageSinceNanos = System.nanoTime();
            log.warn("lost the API watch on {}; serving the last view while reconnecting", lost);
        } else if (lost.isEmpty() && outageSinceNanos >= 0) {
            log.info("API watches restored after {} s", (System.nanoTime() - outageSinceNanos) / 1_000_000_000L);
            outageSinceNanos = -1;
        }
    }

    /**
     * fabric8 7.8's {@code Reflector.isWatching} throws a NullPointerException while a watch is
     * being replaced or stopped (it wraps a field that is then null in {@code Optional.of}); that
     * moment is simply "not watching".
     */
    private static boolean isWatching(SharedIndexInformer<?> informer) {
        try {
            return informer.isWatching();
        } catch (NullPointerException e) {
            return false;
        }
    }

    @Override
    public ClusterSnapshot snapshot() {
        return snapshot;
    }

    @Override
    public boolean ready() {
        return ready;
    }

    /** Nodes pods should not return to: where the kubelet recently evicted a pod of the same controller. */
    public AvoidList recentEvictions() {
        return evictions;
    }

    /**
     * Seconds the view of {@code kind} may be behind the API: about 0 (at most the applier's 1 s
     * poll) while its watch is up and applied; growing while the watch is down or not yet synced.
     */
    public double staleSeconds(String kind) {
        return freshness.staleSeconds(ClusterEvent.Kind.valueOf(kind), System.nanoTime());
    }

    /** Notifications the informer of {@code kind} delivered that meant {@code outcome} (an {@code EnqueueingHandler.Outcome}). */
    public long notifications(String kind, String outcome) {
        EnqueueingHandler<?> handler = handlers.get(ClusterEvent.Kind.valueOf(kind));
        return handler == null ? 0 : handler.count(EnqueueingHandler.Outcome.valueOf(outcome));
    }

    public List<String> notificationOutcomes() {
        return Arrays.stream(EnqueueingHandler.Outcome.values()).map(Enum::name).toList();
    }

    public List<String> watchedKinds() {
        return informers.keySet().stream().map(Enum::name).toList();
    }

    /** The kinds of gangs' PodGroups watched: those the cluster served makeroom at its start. */
    List<PodGroupKind> podGroupKindsWatched() {
        return podGroups == null ? List.of() : podGroups.watching();
    }

    /** How metrics name a watched kind: as {@code makeroom_cluster_objects} does, the Kubernetes kind in lower case. */
    public static String kindLabel(String kind) {
        return ClusterEvent.Kind.valueOf(kind).label();
    }

    /** The client this view watches through, for the cluster adapter's other parts (the rescheduler's). */
    public KubernetesClient client() {
        return client;
    }

    /** makeroom's own namespace (where its ConfigMaps and Lease live). */
    public String namespace() {
        return settings.configMapNamespace();
    }

    /** makeroom's ConfigMap as this view watches it. */
    public ConfigMapFeed configMapFeed() {
        return configData;
    }

    /** The data of makeroom's own ConfigMap, as last seen (empty when there is none). */
    public Map<String, String> configData() {
        return configData.data();
    }

    @Override
    public void close() {
        running = false;
        version.close();
        informers.values().forEach(SharedIndexInformer::stop);
        if (podGroups != null) {
            podGroups.stop();
        }
        applier.interrupt();
        lister.close();
    }
}
