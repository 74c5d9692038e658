package dev.makeroom.queueconfig;

import dev.makeroom.cluster.ConfigDocuments;
import dev.makeroom.cluster.ConfigMapFeed;
import dev.makeroom.core.queue.InvalidQueueConfigException;
import dev.makeroom.core.queue.QueueTree;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The queue configuration in force. The application configuration ({@code makeroom.queues.file}
 * or {@code .config}) is read at start and must be valid. The ConfigMap's {@code queues.yaml},
 * while present, replaces it, live; a ConfigMap document that does not parse or validate is
 * rejected whole: the last good configuration stays, the error is logged, counted and kept for
 * the debug API until a good document arrives.
 */
public class QueueConfigService {

    public static final String CONFIG_MAP_KEY = "queues.yaml";

    private static final Logger log = LoggerFactory.getLogger(QueueConfigService.class);

    private final Clock clock;
    private final QueueConfigState base;
    private final AtomicLong failures = new AtomicLong();
    private volatile QueueConfigState state;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    /**
     * {@code file} ({@code makeroom.queues.file}) or {@code inline} ({@code makeroom.queues.config}),
     * at most one, is the application's configuration; {@code feed} brings makeroom's ConfigMap.
     */
    public QueueConfigService(String file, String inline, ConfigMapFeed feed, Clock clock) {
        this.clock = clock;
        this.base = fromApplication(file, inline);
        this.state = base;
        if (base.tree().enabled()) {
            log.info("queues: {} queues from {}", base.tree().queues().size(), base.source());
        }
        ConfigDocuments.follow(feed, CONFIG_MAP_KEY, this::onConfigMap);
    }

    /** Runs {@code listener} now and after every change of the configuration in force. */
    public void onChange(Runnable listener) {
        listeners.add(listener);
        listener.run();
    }

    private void changed() {
        listeners.forEach(Runnable::run);
    }

    public QueueConfigState state() {
        return state;
    }

    public QueueTree tree() {
        return state.tree();
    }

    /** ConfigMap documents rejected since start. */
    public long reloadFailures() {
        return failures.get();
    }

    private QueueConfigState fromApplication(String file, String inline) {
        ConfigDocuments.Document document = ConfigDocuments.fromApplication("makeroom.queues", file, inline);
        if (document == null) {
            return new QueueConfigState(QueueTree.OFF, "none", clock.instant(), List.of(), null, null);
        }
        String source = document.source();
        String text = document.text();
        List<String> warnings = new ArrayList<>();
        try {
            QueueTree tree = QueueConfigParser.parse(text, warnings::add);
            warnings.forEach(w -> log.warn("queues ({}): {}", source, w));
            return new QueueConfigState(tree, source, clock.instant(), warnings, null, null);
        } catch (InvalidQueueConfigException e) {
            throw new IllegalStateException("invalid queue configuration in " + source + ": " + e.getMessage(), e);
        }
    }

    /** A new document in the ConfigMap, or null: it has none any more. */
    private synchronized void onConfigMap(String document) {
        if (document == null) {
            log.info("queues: the ConfigMap has no {} any more; back to {}", CONFIG_MAP_KEY, base.source());
            state = base;
            changed();
            return;
        }
        List<String> warnings = new ArrayList<>();
        try {
            QueueTree tree = QueueConfigParser.parse(document, warnings::add);
            state = new QueueConfigState(tree, "ConfigMap key " + CONFIG_MAP_KEY, clock.instant(), warnings, null, null);
            warnings.forEach(w -> log.warn("queues (ConfigMap): {}", w));
            log.info("queues: loaded {} queues from the ConfigMap", tree.queues().size());
            changed();
        } catch (InvalidQueueConfigException e) {
            failures.incrementAndGet();
            state = state.rejected(e.getMessage(), clock.instant());
            log.error("queues: rejected the ConfigMap's {}, keeping the configuration from {}: {}", CONFIG_MAP_KEY,
                    state.source(), e.getMessage());
        }
    }
}
