package dev.makeroom.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One keep-alive HTTP/1.1 connection that POSTs prepared bodies and reads whole answers, blocking.
 * The load client's own cost must stay far below makeroom's, or the client's CPU and garbage show
 * up as makeroom's latency on a 2-core machine; java.net.http's per-request machinery (futures,
 * selector hand-offs, buffer copies) was a visible part of the tail. Go's client, which the
 * scheduler uses, is lean in the same way.
 */
final class RawHttpConnection implements AutoCloseable {

    /** The status and body of one answer. */
    record Answer(int status, byte[] body) {
    }

    private final String host;
    private final int port;
    private Socket socket;
    private OutputStream out;
    private InputStream in;

    RawHttpConnection(String host, int port) {
        this.host = host;
        this.port = port;
    }

    Answer post(String path, byte[] body) throws IOException {
        if (socket == null) {
            socket = new Socket(host, port);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(30_000);
            out = socket.getOutputStream();
            in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        }
        try {
            out.write(("POST " + path + " HTTP/1.1\r\nHost: " + host + ":" + port
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            return read();
        } catch (IOException e) {
            close(); // the next request opens a fresh connection
            throw e;
        }
    }

    private Answer read() throws IOException {
        String statusLine = line();
        int status = Integer.parseInt(statusLine.split(" ", 3)[1]);
        long length = -1;
        boolean chunked = false;
        boolean closing = false;
        for (String header = line(); !header.isEmpty(); header = line()) {
            String lower = header.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Long.parseLong(lower.substring(15).trim());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            } else if (lower.startsWith("connection:") && lower.contains("close")) {
                closing = true;
            }
        }
        byte[] body;
        if (chunked) {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (int size = Integer.parseInt(line().split(";")[0].trim(), 16); size > 0;
                 size = Integer.parseInt(line().split(";")[0].trim(), 16)) {
                all.write(in.readNBytes(size));
                line();
            }
            line(); // the empty line after the last chunk (no trailers)
            body = all.toByteArray();
        } else {
            body = new byte[(int) Math.max(0, length)]; // read in place: readNBytes gathers small pieces and copies them
            for (int filled = 0, n; filled < body.length; filled += n) {
                n = in.read(body, filled, body.length - filled);
                if (n < 0) {
                    throw new IOException("connection closed mid-answer");
                }
            }
        }
        if (closing) {
            close();
        }
        return new Answer(status, body);
    }

    private String line() throws IOException {
        return line(in);
    }

    /** One line of an HTTP head, without its CR LF; the stream ending first is an IOException. */
    static String line(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("connection closed mid-answer");
            }
            if (c != '\r') {
                sb.append((char) c);
            }
        }
        return sb.toString();
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            socket = null;
        }
    }
}
