package dev.makeroom.bench;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * What moving a full-object filter body costs on this machine with no work done on it: the load
 * tool's client posts the 25 MB body of 5,000 Nodes over loopback to a bare HTTP server that reads
 * it into one array and answers with the same bytes through a 128 KB buffer (as makeroom's Tomcat
 * writes). The floor under the load tool's "filter, full Nodes" figures, which also pay for
 * reading, deciding and echoing.
 *
 * <p>Arguments: node count (default 5000), requests (default 60; the first third warm up).
 */
public final class TransferFloor {

    private TransferFloor() {
    }

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        int requests = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        KubernetesSerialization k8s = new KubernetesSerialization();
        StringBuilder full = new StringBuilder("{\"Pod\":{},\"Nodes\":{\"metadata\":{},\"items\":[");
        for (int i = 0; i < nodes; i++) {
            full.append(i == 0 ? "" : ",").append(k8s.asJson(SyntheticObjects.node("node-" + i, 10 + i)));
        }
        byte[] body = full.append("]},\"NodeNames\":null}").toString().getBytes(StandardCharsets.UTF_8);

        try (ServerSocket server = new ServerSocket(0)) {
            Thread echo = new Thread(() -> serve(server), "echo");
            echo.setDaemon(true);
            echo.start();
            long[] nanos = new long[requests];
            try (RawHttpConnection connection = new RawHttpConnection("127.0.0.1", server.getLocalPort())) {
                for (int k = 0; k < requests; k++) {
                    long start = System.nanoTime();
                    RawHttpConnection.Answer answer = connection.post("/echo", body);
                    nanos[k] = System.nanoTime() - start;
                    if (answer.status() != 200 || answer.body().length != body.length) {
                        throw new IllegalStateException("echo answered " + answer.status());
                    }
                }
            }
            long[] measured = Arrays.copyOfRange(nanos, requests / 3, requests);
            Arrays.sort(measured);
            System.out.printf(Locale.ROOT, "%d MB in and out, %d requests: p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                    body.length >> 20, measured.length, measured[measured.length / 2] / 1e6,
                    measured[(int) Math.ceil(measured.length * 0.99) - 1] / 1e6, measured[measured.length - 1] / 1e6);
        }
    }

    /** Answers every request on one connection with its own body, until the client closes it. */
    private static void serve(ServerSocket server) {
        try (Socket socket = server.accept()) {
            socket.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(socket.getInputStream(), 128 * 1024);
            OutputStream out = socket.getOutputStream();
            byte[] buffer = new byte[128 * 1024];
            while (true) {
                int length = contentLength(in);
                byte[] body = in.readNBytes(length);
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + length
                        + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                for (int at = 0; at < length; at += buffer.length) {
                    int n = Math.min(buffer.length, length - at);
                    System.arraycopy(body, at, buffer, 0, n);
                    out.write(buffer, 0, n);
                }
                out.flush();
            }
        } catch (IOException e) {
            // the client is done
        }
    }

    /** Reads a request's head (the request line and headers); its Content-Length. */
    private static int contentLength(InputStream in) throws IOException {
        int length = 0;
        RawHttpConnection.line(in); // POST /echo HTTP/1.1
        for (String header = RawHttpConnection.line(in); !header.isEmpty(); header = RawHttpConnection.line(in)) {
            if (header.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(header.substring("content-length:".length()).strip());
            }
        }
        return length;
    }
}
