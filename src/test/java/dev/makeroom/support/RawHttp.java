package dev.makeroom.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One HTTP/1.1 request written byte for byte on its own connection ({@code Connection: close}): for
 * what Java's HTTP clients refuse to send (a query string that is not valid percent-encoding, a method
 * of any name, a Content-Type that does not parse).
 */
public final class RawHttp {

    /** The status and the body (de-chunked) of an answer. */
    public record Answer(int status, String body) {
    }

    private RawHttp() {
    }

    /**
     * Sends {@code requestLine} (method, target; the protocol is added), {@code headers} (each line
     * ending in CRLF; {@code Host}, {@code Content-Length} and {@code Connection} are added) and {@code body}.
     */
    public static Answer send(int port, String requestLine, String headers, byte[] body) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write((requestLine + " HTTP/1.1\r\nHost: localhost\r\n" + headers + "Content-Length: " + body.length
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String text = all.toString(StandardCharsets.UTF_8);
            int status = Integer.parseInt(text.substring(9, 12));
            int headEnd = text.indexOf("\r\n\r\n");
            String answerBody = headEnd < 0 ? "" : text.substring(headEnd + 4);
            if (text.substring(0, Math.max(0, headEnd)).toLowerCase().contains("transfer-encoding: chunked")
                    && answerBody.contains("\r\n")) {
                answerBody = answerBody.substring(answerBody.indexOf("\r\n") + 2, Math.max(answerBody.indexOf("\r\n") + 2,
                        answerBody.lastIndexOf("\r\n0\r\n")));
            }
            return new Answer(status, answerBody);
        }
    }
}
