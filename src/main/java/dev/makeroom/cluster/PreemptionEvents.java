package dev.makeroom.cluster;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.preemption.DecisionEvents;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An Event on the preemptor for each preemption decision makeroom makes (reason
 * {@code MakeroomPreemption}), where `kubectl describe pod` and event exporters show it. Written off
 * the request's thread (a full queue drops the Event, never the answer), the same message for a pod
 * at most once per {@code quietFor} (a pod retrying every second does not flood the API), and about
 * {@code perSecond} Events a second in all at most (the count is kept without a lock: requests may
 * race past it by a few).
 */
public final class PreemptionEvents implements DecisionEvents, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PreemptionEvents.class);
    public static final String REASON = "MakeroomPreemption";

    private final KubernetesClient client;
    private final Clock clock;
    private final Cache<String, String> lastSaid;
    private final ThreadPoolExecutor writer;
    private final int perSecond;
    private final AtomicLong second = new AtomicLong();
    private final AtomicLong inSecond = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();

    /** No Events: a snapshot file has no API, or {@code makeroom.events.enabled} is false. */
    public static PreemptionEvents off() {
        return new PreemptionEvents(null, Clock.systemUTC(), Duration.ZERO, 0);
    }

    public PreemptionEvents(KubernetesClient client, Clock clock, Duration quietFor, int perSecond) {
        this.client = client;
        this.clock = clock;
        this.perSecond = perSecond;
        this.lastSaid = Caffeine.newBuilder().maximumSize(10_000)
                .expireAfterWrite(quietFor.isZero() ? Duration.ofSeconds(1) : quietFor).build();
        this.writer = client == null ? null : new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(256), r -> {
                    Thread t = new Thread(r, "makeroom-events");
                    t.setDaemon(true);
                    return t;
                }, (task, pool) -> dropped.incrementAndGet());
    }

    @Override
    public boolean enabled() {
        return writer != null;
    }

    /** Events not written because the queue or the rate was full. */
    public long dropped() {
        return dropped.get();
    }

    /** Says {@code message} on the pod, unless it said the same lately or the rate is spent. */
    @Override
    public void record(PodRef pod, String message) {
        if (writer == null || Objects.equals(lastSaid.getIfPresent(pod.uid()), message) || !withinRate()) {
            return;
        }
        lastSaid.put(pod.uid(), message);
        writer.execute(() -> write(pod, message));
    }

    private boolean withinRate() {
        long now = clock.millis() / 1000;
        if (second.getAndSet(now) != now) {
            inSecond.set(0);
        }
        if (inSecond.incrementAndGet() > perSecond) {
            dropped.incrementAndGet();
            return false;
        }
        return true;
    }

    private void write(PodRef pod, String message) {
        try {
            client.v1().events().inNamespace(pod.namespace())
                    .resource(MakeroomEvent.onPod(pod, REASON, message, clock.instant())).create();
        } catch (KubernetesClientException e) {
            log.debug("could not record an Event for {}: {}", pod, e.getMessage());
        }
    }

    @Override
    public void close() {
        if (writer != null) {
            writer.shutdownNow();
        }
    }
}
