package dev.makeroom.rescheduler;

import dev.makeroom.cluster.ConfigMapFeed;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
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
    private String lastDocument;

    public ReschedulerConfigService(String file, String inline, ConfigMapFeed feed, Clock clock) {
        this.clock = clock;
        this.base = fromApplication(file, inline);
        this.state = base;
        feed.onConfigData(this::onConfigMap);
    }

    public ReschedulerConfigState state() {
        return state;
    }

    /** ConfigMap documents rejected since start. */
    public long reloadFailures() {
        return failures.get();
    }

    private ReschedulerConfigState fromApplication(String file, String inline) {
        boolean hasFile = file != null && !file.isBlank();
        boolean hasInline = inline != null && !inline.isBlank();
        if (hasFile && hasInline) {
            throw new IllegalStateException("set makeroom.rescheduler.file or makeroom.rescheduler.config, not both");
        }
        if (!hasFile && !hasInline) {
            return new ReschedulerConfigState(ReschedulerConfigParser.DEFAULTS, "defaults", clock.instant(), null, null);
        }
        String source = hasFile ? "file " + file : "makeroom.rescheduler.config";
        try {
            String text = hasFile ? Files.readString(Path.of(file)) : inline;
            return new ReschedulerConfigState(ReschedulerConfigParser.parse(text), source, clock.instant(), null, null);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read makeroom.rescheduler.file " + file + ": " + e.getMessage(), e);
        } catch (InvalidReschedulerConfigException e) {
            throw new IllegalStateException("invalid rescheduler configuration in " + source + ": " + e.getMessage(), e);
        }
    }

    private synchronized void onConfigMap(Map<String, String> data) {
        String document = data.get(CONFIG_MAP_KEY);
        if (document == null) {
            if (lastDocument != null) {
                log.info("rescheduler: the ConfigMap has no {} any more; back to {}", CONFIG_MAP_KEY, base.source());
                lastDocument = null;
                state = base;
            }
            return;
        }
        if (document.equals(lastDocument)) {
            return;
        }
        lastDocument = document;
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
