package dev.makeroom.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * The floor for an extender in the scheduler's path: one that does nothing. filter hands the node
 * names back (found by a byte search, no JSON parsing), prioritize scores nothing, preempt names no
 * victims. What a scheduler loses with it registered is the cost of the HTTP calls themselves, on
 * both sides; throughput.py measures makeroom against it with {@code MR} pointed here.
 *
 * <p>{@code java src/bench/java/dev/makeroom/bench/FloorExtender.java [port]} (no dependencies: the
 * JDK's own HTTP server, a thread per core).
 */
public final class FloorExtender {

    private static final byte[] NAMES_KEY = "\"NodeNames\":".getBytes(StandardCharsets.US_ASCII);

    private FloorExtender() {
    }

    public static void main(String[] args) throws IOException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 18140;
        // headers and body go in two writes: without TCP_NODELAY each answer waits out the client's delayed ACK
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64);
        server.setExecutor(Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors()));
        server.createContext("/scheduler/filter", exchange -> answer(exchange, filter(exchange.getRequestBody().readAllBytes())));
        server.createContext("/scheduler/prioritize", exchange -> answer(exchange, bytes("[]")));
        server.createContext("/scheduler/preempt", exchange -> answer(exchange, bytes("{\"NodeNameToMetaVictims\":{}}")));
        server.start();
        System.out.println("floor extender on http://127.0.0.1:" + port + "/scheduler");
    }

    /** Every node asked passes: the body's NodeNames array, copied as it came. */
    static byte[] filter(byte[] body) {
        int at = indexOf(body, NAMES_KEY);
        if (at < 0) {
            return bytes("{\"Error\":\"this floor extender answers NodeNames bodies only\"}");
        }
        int from = at + NAMES_KEY.length;
        int to = from;
        while (to < body.length && body[to] != ']') {
            to++;
        }
        String names = new String(body, from, Math.min(body.length, to + 1) - from, StandardCharsets.UTF_8);
        return bytes("{\"Nodes\":null,\"NodeNames\":" + names + ",\"FailedNodes\":{},\"FailedAndUnresolvableNodes\":{},\"Error\":\"\"}");
    }

    private static int indexOf(byte[] body, byte[] key) {
        outer:
        for (int i = 0; i + key.length <= body.length; i++) {
            for (int k = 0; k < key.length; k++) {
                if (body[i + k] != key[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static void answer(HttpExchange exchange, byte[] body) throws IOException {
        exchange.getRequestBody().close();
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
