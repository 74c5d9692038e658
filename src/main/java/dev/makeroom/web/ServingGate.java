package dev.makeroom.web;

import dev.makeroom.config.MakeroomProperties;
import dev.makeroom.rescheduler.ActingGate;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.health.actuate.endpoint.CompositeHealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The gate of everything makeroom does to the cluster ({@link ActingGate}): open only while this
 * replica's extender port listens and answers the filter verb, its readiness group is UP (the view
 * synced, the decision paths warmed) and it is not shutting down. The port is asked over real HTTP, as
 * the scheduler asks it, with a marked call that leaves no metrics, log or decision
 * ({@link WarmupRequests}); an answer is trusted for a second, so the rounds' moves cost one call at
 * most each second. Where the port speaks TLS only its listening is checked (a connection), since
 * this process does not hold the scheduler's trust for its own certificate.
 */
@Component
class ServingGate implements ActingGate {

    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
    private static final long ANSWER_TRUSTED_NANOS = Duration.ofSeconds(1).toNanos();
    private static final byte[] PROBE = ("{\"Pod\":{\"metadata\":{\"name\":\"makeroom-serving-probe\","
            + "\"namespace\":\"makeroom-serving-probe\",\"uid\":\"makeroom-serving-probe\"},"
            + "\"spec\":{\"containers\":[]}},\"NodeNames\":[]}").getBytes(StandardCharsets.UTF_8);

    private final ApplicationAvailability availability;
    private final ObjectProvider<HealthEndpoint> health;
    private final WarmupRequests warmups;
    private final String prefix;
    private final ExtenderPort port;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(PROBE_TIMEOUT).build();
    private volatile boolean closing;
    private volatile long answeredAt; // System.nanoTime() of the last answer (0: none yet, or it failed since)

    ServingGate(ApplicationAvailability availability, ObjectProvider<HealthEndpoint> health, WarmupRequests warmups,
                MakeroomProperties properties, ExtenderPort port) {
        this.availability = availability;
        this.health = health;
        this.warmups = warmups;
        this.prefix = properties.web().prefix();
        this.port = port;
    }

    /** Shut for good as the context starts closing: before the web server stops serving. */
    @EventListener(ContextClosedEvent.class)
    void closing() {
        closing = true;
    }

    @Override
    public Optional<Shut> shut() {
        if (closing) {
            return shut("makeroom is shutting down");
        }
        if (!port.listening()) {
            return shut("its extender port is not listening yet");
        }
        ReadinessState readiness = availability.getReadinessState();
        if (readiness != ReadinessState.ACCEPTING_TRAFFIC) {
            return shut("it does not report Ready yet (readinessState " + readiness + ")");
        }
        Optional<Shut> group = readinessGroup();
        if (group.isPresent()) {
            return group;
        }
        return answers();
    }

    /** The readiness group as the kubelet's probe reads it (view synced, decision paths warmed). */
    private Optional<Shut> readinessGroup() {
        HealthEndpoint endpoint = health.getIfAvailable();
        HealthDescriptor group = endpoint == null ? null : endpoint.healthForPath("readiness");
        if (group == null || Status.UP.equals(group.getStatus())) {
            return Optional.empty();
        }
        String down = group instanceof CompositeHealthDescriptor composite
                ? composite.getComponents().entrySet().stream().filter(e -> !Status.UP.equals(e.getValue().getStatus()))
                .map(e -> e.getKey() + " " + e.getValue().getStatus()).collect(Collectors.joining(", "))
                : group.getStatus().toString();
        return shut("it does not report Ready yet (" + down + ")");
    }

    /** Whether the extender port answers now (an answer of the last second stands). */
    private Optional<Shut> answers() {
        if (answeredAt != 0 && System.nanoTime() - answeredAt < ANSWER_TRUSTED_NANOS) {
            return Optional.empty();
        }
        try {
            if (port.tls()) {
                try (Socket socket = new Socket()) {
                    socket.connect(new InetSocketAddress("127.0.0.1", port.number()), (int) PROBE_TIMEOUT.toMillis());
                }
            } else {
                HttpResponse<Void> response = client.send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + port.number() + prefix + "/filter")).timeout(PROBE_TIMEOUT)
                        .header("Content-Type", "application/json").header(WarmupRequests.HEADER, warmups.token())
                        .POST(HttpRequest.BodyPublishers.ofByteArray(PROBE)).build(), HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() != 200) {
                    answeredAt = 0;
                    return shut("its extender port answered the filter verb with " + response.statusCode());
                }
            }
            answeredAt = System.nanoTime();
            return Optional.empty();
        } catch (IOException e) {
            answeredAt = 0;
            return shut("its extender port does not answer (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            answeredAt = 0;
            return shut("interrupted while asking its extender port");
        }
    }

    private static Optional<Shut> shut(String why) {
        return Optional.of(new Shut(why));
    }
}
