package dev.makeroom.cluster;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.makeroom.core.model.ConsolidationMark;
import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.preemption.HeldRoomRelease;
import dev.makeroom.core.preemption.HeldRooms;
import dev.makeroom.mapping.NodeTaintEdit;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Puts a node the consolidate policy keeps empty back into service for a pod that needs it
 * ({@link HeldRoomRelease}): removes the taint, then says so on the pod (reason {@value #REASON}, as the
 * rescheduler's own release does) and on the node. Off the request's thread: a full queue drops the
 * release (the scheduler asks again, and it is decided again), never the answer. The scheduler may ask
 * again before the view shows the taint gone, so a node released lately is not written again.
 */
public final class KeptNodeReleases implements HeldRooms, AutoCloseable {

    static final String REASON = "NodeReleased";
    /** How long a release is not written again: the watch shows the taint gone well within it. */
    static final Duration QUIET = Duration.ofSeconds(30);

    private static final Logger log = LoggerFactory.getLogger(KeptNodeReleases.class);

    private final KubernetesClient client;
    private final Clock clock;
    private final ThreadPoolExecutor writer;
    private final Cache<String, PodRef> lately = Caffeine.newBuilder().expireAfterWrite(QUIET).build(); // node: for whom
    private final AtomicLong dropped = new AtomicLong();

    public KeptNodeReleases(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
        this.writer = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(64), r -> {
            Thread t = new Thread(r, "makeroom-node-releases");
            t.setDaemon(true);
            return t;
        }, (task, pool) -> {
            dropped.incrementAndGet();
            if (task instanceof Write write) {
                lately.invalidate(write.release.node()); // not written: the next ask tries again
            }
        });
    }

    @Override
    public void release(HeldRoomRelease release) {
        if (lately.asMap().putIfAbsent(release.node(), release.pod()) == null) {
            writer.execute(new Write(release));
        }
    }

    @Override
    public Map<String, PodRef> givenBack() {
        return Collections.unmodifiableMap(lately.asMap());
    }

    /** Releases not written because the queue was full. */
    public long dropped() {
        return dropped.get();
    }

    private final class Write implements Runnable {
        private final HeldRoomRelease release;

        Write(HeldRoomRelease release) {
            this.release = release;
        }

        @Override
        public void run() {
            String node = release.node();
            try {
                client.nodes().withName(node).edit(n -> NodeTaintEdit.without(n, ConsolidationMark.TAINT_KEY));
            } catch (KubernetesClientException e) {
                lately.invalidate(node);
                log.warn("could not put {} back into service for {}: {}", node, release.pod(), e.getMessage());
                return;
            }
            log.info("put {} back into service for {}: it fits there and no one is evicted", node, release.pod());
            String message = "makeroom put node " + node + " back into service for " + release.pod()
                    + ": it was kept empty by consolidation and the pod fits there, so no one is evicted";
            try {
                client.v1().events().inNamespace(release.pod().namespace())
                        .resource(MakeroomEvent.onPod(release.pod(), REASON, message, clock.instant())).create();
                client.v1().events().inNamespace("default").resource(MakeroomEvent.onNode(node, REASON, message, clock.instant()))
                        .create();
            } catch (KubernetesClientException e) {
                log.warn("could not record the release of {} in an Event: {}", node, e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        writer.shutdownNow();
    }
}
