package dev.makeroom.cluster;

import java.nio.file.Path;

/**
 * The HTTPS port on which the debug API is the API server's aggregated API {@code debug.makeroom.dev/v1}
 * ({@link #OFF}: none): its serving certificate and key (PEM files), and the front proxy whose
 * requests alone it answers.
 */
public record AggregatedApiListener(int port, Path certificate, Path key, FrontProxy frontProxy) implements AutoCloseable {

    public static final AggregatedApiListener OFF = new AggregatedApiListener(0, null, null, null);

    public boolean on() {
        return port > 0;
    }

    @Override
    public void close() throws Exception {
        if (frontProxy != null) {
            frontProxy.close();
        }
    }
}
