package dev.makeroom.web;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scheduler keeps one connection to its extender and sends every call of every pod on it.
 * makeroom must never end that connection itself: Tomcat's default did after every 100th request,
 * so the scheduler paid a new connection in its scheduling cycle every 50 pods, and a call racing the
 * close could be lost.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SchedulerConnectionTest {

    @LocalServerPort
    int port;

    @Test
    void hundreds_of_calls_on_one_connection_are_all_answered_and_it_stays_open() throws Exception {
        String[] verbs = {"filter", "prioritize", "preempt"};
        byte[][] bodies = new byte[verbs.length][];
        for (int v = 0; v < verbs.length; v++) {
            bodies[v] = Files.readAllBytes(Path.of("examples/requests/" + verbs[v] + ".json"));
        }
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            for (int call = 0; call < 450; call++) {
                int v = call % verbs.length;
                out.write(("POST /scheduler/" + verbs[v] + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Content-Type: application/json\r\nContent-Length: " + bodies[v].length + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.write(bodies[v]);
                out.flush();
                String head = readHead(in);
                assertThat(head).as("call %d (%s)", call, verbs[v]).startsWith("HTTP/1.1 200");
                assertThat(head.toLowerCase(Locale.ROOT)).as("call %d", call).doesNotContain("connection: close");
                assertOneOfEachHeader(head, call);
                byte[] answer = readBody(in, head);
                assertThat(answer[0]).as("call %d answers JSON", call).isIn((byte) '{', (byte) '['); // prioritize: a list
            }
        }
    }

    /**
     * filter and prioritize write their headers as bytes into Tomcat's own (NodeVerbValve): each answer
     * has exactly one of each, whatever the answers before it on the connection had.
     */
    private static void assertOneOfEachHeader(String head, int call) {
        Map<String, List<String>> headers = new HashMap<>();
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                headers.computeIfAbsent(line.substring(0, colon).toLowerCase(Locale.ROOT), name -> new ArrayList<>())
                        .add(line.substring(colon + 1).trim());
            }
        }
        assertThat(headers.get("content-type")).as("call %d: %s", call, head).hasSize(1)
                .allSatisfy(type -> assertThat(type).startsWith("application/json"));
        assertThat(headers.get("content-length")).as("call %d: %s", call, head).hasSize(1);
        assertThat(headers.get("date")).as("call %d: %s", call, head).hasSize(1)
                .allSatisfy(date -> DateTimeFormatter.RFC_1123_DATE_TIME.parse(date));
        assertThat(headers).as("call %d: %s", call, head).doesNotContainKey("transfer-encoding");
    }

    /** The status line and headers, up to the blank line. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the connection closed after " + head.size() + " bytes of the answer");
            }
            head.write(b);
            matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    private static byte[] readBody(InputStream in, String head) throws IOException {
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                int length = Integer.parseInt(line.substring("content-length:".length()).trim());
                byte[] body = in.readNBytes(length);
                assertThat(body).hasSize(length);
                return body;
            }
        }
        throw new AssertionError("an answer without Content-Length: " + head);
    }
}
