package dev.makeroom.bench;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * Warms the load client's own code before makeroom starts, so that "the first calls after
 * readiness" time makeroom's first answers and not the client's first requests: the same
 * connection class posts the same bodies to a server in this JVM that reads each body and answers
 * with as many bytes as makeroom's answer, for as long as the JIT needs to compile that path.
 */
final class ClientWarmup {

    private static final int ANSWER_BYTES = 100_000; // about a 5,000-node filter answer

    private ClientWarmup() {
    }

    static void run(List<byte[]> bodies, long millis) throws IOException {
        byte[] answer = new byte[ANSWER_BYTES];
        HttpServer sink = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        sink.createContext("/", exchange -> {
            try (InputStream in = exchange.getRequestBody(); OutputStream out = exchange.getResponseBody()) {
                in.readAllBytes();
                exchange.sendResponseHeaders(200, answer.length);
                out.write(answer);
            }
        });
        sink.start();
        long end = System.nanoTime() + millis * 1_000_000;
        int requests = 0;
        try (RawHttpConnection connection = new RawHttpConnection("127.0.0.1", sink.getAddress().getPort())) {
            while (System.nanoTime() < end) {
                for (byte[] body : bodies) {
                    if (connection.post("/scheduler/warm", body).body().length != ANSWER_BYTES) {
                        throw new IOException("the client's warm-up answer came back short");
                    }
                    requests++;
                }
            }
        } finally {
            sink.stop(0);
        }
        System.out.printf("client warmed: %d requests in %d ms%n", requests, millis);
    }
}
