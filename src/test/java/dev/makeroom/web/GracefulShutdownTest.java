package dev.makeroom.web;

import dev.makeroom.MakeroomApplication;
import dev.makeroom.support.Await;
import org.junit.jupiter.api.Test;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A preempt request whose body is still arriving when shutdown starts: readiness goes DOWN first,
 * and the request is still answered in full before the server stops.
 */
class GracefulShutdownTest {

    @Test
    void a_request_in_flight_during_shutdown_completes() throws Exception {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(MakeroomApplication.class)
                .run("--server.port=0");
        TomcatWebServer server = (TomcatWebServer) ((WebServerApplicationContext) context).getWebServer();
        byte[] body = Files.readString(Path.of("examples/requests/preempt.json")).getBytes(StandardCharsets.UTF_8);
        int half = body.length / 2;
        // a first request initialises the DispatcherServlet, so the one under test is not stuck before it
        assertThat(new dev.makeroom.support.ExtenderClient(server.getPort())
                .post("/scheduler/preempt", new String(body, StandardCharsets.UTF_8)).statusCode()).isEqualTo(200);

        try (Socket socket = new Socket("127.0.0.1", server.getPort())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /scheduler/preempt HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body, 0, half);
            out.flush();
            Await.until("the request is inside the DispatcherServlet, reading its body", Duration.ofSeconds(10),
                    GracefulShutdownTest::aRequestIsInTheServlet);

            CompletableFuture<Void> shutdown = CompletableFuture.runAsync(context::close);
            ApplicationAvailability availability = context.getBean(ApplicationAvailability.class);
            Await.until("readiness refuses traffic", Duration.ofSeconds(10),
                    () -> availability.getReadinessState() == ReadinessState.REFUSING_TRAFFIC);
            assertThat(shutdown).isNotDone();

            out.write(body, half, body.length - half);
            out.flush();
            String response = readAll(socket.getInputStream());

            assertThat(response).startsWith("HTTP/1.1 200");
            assertThat(response).contains("\"NodeNameToMetaVictims\":{\"node-a\"");
            shutdown.get(30, TimeUnit.SECONDS);
            assertThat(context.isActive()).isFalse();
        }
    }

    private static boolean aRequestIsInTheServlet() {
        return Thread.getAllStackTraces().values().stream().anyMatch(stack -> java.util.Arrays.stream(stack)
                .anyMatch(frame -> frame.getClassName().equals("org.springframework.web.servlet.DispatcherServlet")));
    }

    private static String readAll(InputStream in) throws java.io.IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        in.transferTo(bytes);
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
