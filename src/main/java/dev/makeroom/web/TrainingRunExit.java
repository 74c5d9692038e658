package dev.makeroom.web;

import dev.makeroom.config.MakeroomProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import java.util.function.IntConsumer;

/**
 * Ends a training run ({@code makeroom.web.exit-after-warmup}): once the warm-up has run, makeroom
 * closes its context and exits with code 0. Run under JDK 25's {@code -XX:AOTCacheOutput}, the JVM
 * then writes an ahead-of-time cache holding the classes startup loaded and the profiles of the
 * methods the warm-up ran, which a makeroom started with that cache begins from (Spring starts in
 * about half the time; docs/benchmarks.md). A warm-up that failed exits with code 1 instead, so
 * that the image build stops rather than ship a cache trained on start-up alone.
 */
@Component
class TrainingRunExit {

    private static final Logger log = LoggerFactory.getLogger(TrainingRunExit.class);

    private final boolean enabled;
    private final ConfigurableApplicationContext context;
    private final IntConsumer processExit;

    @Autowired
    TrainingRunExit(MakeroomProperties properties, ConfigurableApplicationContext context) {
        this(properties.web().exitAfterWarmup(), context, System::exit);
    }

    /** {@code processExit}: how the process ends with a code (tests record it instead). */
    TrainingRunExit(boolean enabled, ConfigurableApplicationContext context, IntConsumer processExit) {
        this.enabled = enabled;
        this.context = context;
        this.processExit = processExit;
    }

    @EventListener
    void warmed(DecisionPathsWarmed event) {
        if (!enabled) {
            return;
        }
        int code;
        if (event.failed()) {
            code = 1;
            log.error("training run failed: the warm-up stopped after {} rounds ({}); exiting with code 1",
                    event.rounds(), event.failure());
        } else {
            code = 0;
            log.info("training run done after {} warm-up rounds ({}); exiting", event.rounds(),
                    event.overHttp() ? "over HTTP" : "in-process");
        }
        // not on the warm-up's thread: closing the context waits for the threads it owns
        Thread exit = new Thread(() -> processExit.accept(SpringApplication.exit(context, () -> code)),
                "makeroom-training-exit");
        exit.start();
    }
}
