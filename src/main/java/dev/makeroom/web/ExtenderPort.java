package dev.makeroom.web;

import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The extender port as makeroom calls it itself (the warm-up, the acting gate's probe): its number
 * once Tomcat listens, and whether it speaks TLS.
 */
@Component
class ExtenderPort {

    private final boolean tls;
    private volatile int number = -1;

    ExtenderPort(Environment environment) {
        this.tls = environment.getProperty("server.ssl.bundle") != null
                || environment.getProperty("server.ssl.enabled", Boolean.class, false);
    }

    /** The management server's event has a namespace; the extender port's has none. */
    @EventListener
    void serverStarted(WebServerInitializedEvent event) {
        if (event.getApplicationContext().getServerNamespace() == null) {
            number = event.getWebServer().getPort();
        }
    }

    /** Whether Tomcat listens on it yet. */
    boolean listening() {
        return number > 0;
    }

    /** Its number; -1 until Tomcat listens. */
    int number() {
        return number;
    }

    boolean tls() {
        return tls;
    }
}
