package dev.makeroom.web;

import dev.makeroom.config.MakeroomProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Ends a training run ({@code makeroom.web.exit-after-warmup}): once the warm-up has run, makeroom
 * closes its context and exits with code 0. Run under JDK 25's {@code -XX:AOTCacheOutput}, the JVM
 * then writes an ahead-of-time cache holding the classes startup loaded and the profiles of the
 * methods the warm-up ran, which a makeroom started with that cache begins from (Spring starts in
 * about half the time; docs/benchmarks.md).
 */
@Component
class TrainingRunExit {

    private static final Logger log = LoggerFactory.getLogger(TrainingRunExit.class);

    private final boolean enabled;
    private final ConfigurableApplicationContext context;

    TrainingRunExit(MakeroomProperties properties, ConfigurableApplicationContext context) {
        this.enabled = properties.web().exitAfterWarmup();
        this.context = context;
    }

    @EventListener
    void warmed(DecisionPathsWarmed event) {
        if (!enabled) {
            return;
        }
        log.info("training run done after {} warm-up rounds ({}); exiting", event.rounds(),
                event.overHttp() ? "over HTTP" : "in-process");
        // not on the warm-up's thread: closing the context waits for the threads it owns
        Thread exit = new Thread(() -> System.exit(SpringApplication.exit(context, () -> 0)), "makeroom-training-exit");
        exit.start();
    }
}
