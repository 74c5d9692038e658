package dev.makeroom.rescheduler;

import dev.makeroom.cluster.ConfigDocuments;
import dev.makeroom.cluster.ConfigMapFeed;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The rescheduler document in force: from {@code makeroom.rescheduler.file} or {@code .config} at start
 * (which must be valid), replaced live while the ConfigMap holds {@code rescheduler.yaml}. A ConfigMap
 * document that does not parse or validate is rejected whole; the last good one stays.
 */
public class ReschedulerConfigService {

    public static final String CONFIG_MAP_KEY = "rescheduler.yaml";

    private static final Logger log = LoggerFactory.getLogger(ReschedulerConfigService.class);

    private final Clock clock;
    private final ReschedulerConfigState base;
    private final AtomicLong failures = new AtomicLong();
    private volatile ReschedulerConfigState state;

    public ReschedulerConfigService(String file, String inline, ConfigMapFeed feed, Clock clock) {
        this.clock = clock;
        this.base = fromApplication(file, inline);
        this.state = base;
        ConfigDocuments.follow(feed, CONFIG_MAP_KEY, this::onConfigMap);
    }

    public ReschedulerConfigState state() {
        return state;
    }

    /** ConfigMap documents rejected since start. */
    public long reloadFailures() {
        return failures.get();
    }

    private ReschedulerConfigState fromApplication(String file, String inline) {
        ConfigDocuments.Document document = ConfigDocuments.fromApplication("makeroom.rescheduler", file, inline);
        if (document == null) {
            return new ReschedulerConfigState(ReschedulerConfigParser.DEFAULTS, "defaults", clock.instant(), null, null);
        }
        try {
            return new ReschedulerConfigState(ReschedulerConfigParser.parse(document.text()), document.source(),
                    clock.instant(), null, null);
        } catch (InvalidReschedulerConfigException e) {
            throw new InvalidReschedulerConfigException("invalid rescheduler configuration in " + document.source()
                    + ": " + e.getMessage()); // the start stops with this one line (ReschedulerConfigFailureAnalyzer)
        }
    }

    /** A new document in the ConfigMap, or null: it has none any more. */
    private synchronized void onConfigMap(String document) {
        if (document == null) {
            log.info("rescheduler: the ConfigMap has no {} any more; back to {}", CONFIG_MAP_KEY, base.source());
            state = base;
            return;
        }
        try {
            state = new ReschedulerConfigState(ReschedulerConfigParser.parse(document), "ConfigMap key " + CONFIG_MAP_KEY,
                    clock.instant(), null, null);
            log.info("rescheduler: loaded the ConfigMap's {}", CONFIG_MAP_KEY);
        } catch (InvalidReschedulerConfigException e) {
            failures.incrementAndGet();
            state = state.rejecting(e.getMessage(), clock.instant());
            log.error("rescheduler: rejected the ConfigMap's {}, keeping the configuration from {}: {}", CONFIG_MAP_KEY,
                    state.source(), e.getMessage());
        }
    }
}
