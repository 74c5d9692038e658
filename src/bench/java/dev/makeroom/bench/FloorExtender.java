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
 * <p>With {@code scores}, prioritize gives every node asked a score of 0 instead of none: the floor
 * for an extender that scores, which must list every node (the 1.36 scheduler breaks ties at
 * random only among the nodes some extender listed), so the scheduler reads a score per node.
 *
 * <p>{@code java src/bench/java/dev/makeroom/bench/FloorExtender.java [port] [scores]} (no
 * dependencies: the JDK's own HTTP server, a thread per core).
 */
public final class FloorExtender {

    private static final byte[] NAMES_KEY = "\"NodeNames\":".getBytes(StandardCharsets.US_ASCII);

    private FloorExtender() {
    }

    public static void main(String[] args) throws IOException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 18140;
        boolean scores = args.length > 1 && args[1].equals("scores");
        // headers and body go in two writes: without TCP_NODELAY each answer waits out the client's delayed ACK
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64);
        server.setExecutor(Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors()));
        server.createContext("/scheduler/filter", exchange -> answer(exchange, filter(exchange.getRequestBody().readAllBytes())));
        server.createContext("/scheduler/prioritize", exchange -> answer(exchange,
                scores ? zeroScores(exchange.getRequestBody().readAllBytes()) : bytes("[]")));
        server.createContext("/scheduler/preempt", exchange -> answer(exchange, bytes("{\"NodeNameToMetaVictims\":{}}")));
        server.start();
        System.out.println("floor extender on http://127.0.0.1:" + port + "/scheduler" + (scores ? " (scores)" : ""));
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

    /** A score of 0 for each name in the body's NodeNames array (plain names, as schedulers send them). */
    static byte[] zeroScores(byte[] body) {
        int at = indexOf(body, NAMES_KEY);
        StringBuilder out = new StringBuilder("[");
        for (int i = at < 0 ? body.length : at + NAMES_KEY.length; i < body.length && body[i] != ']'; i++) {
            if (body[i] == '"') {
                int end = i + 1;
                while (body[end] != '"') {
                    end++;
                }
                out.append(out.length() > 1 ? "," : "").append("{\"Host\":")
                        .append(new String(body, i, end - i + 1, StandardCharsets.UTF_8)).append(",\"Score\":0}");
                i = end;
            }
        }
        return bytes(out.append(']').toString());
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
