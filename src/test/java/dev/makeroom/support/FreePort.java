package dev.makeroom.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** A local port free when asked, and nothing listening on it until someone binds it. */
public final class FreePort {

    private FreePort() {
    }

    public static int next() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
