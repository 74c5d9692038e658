package dev.makeroom.cluster;

import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/** Helpers for mock API servers that tests start and stop themselves. */
public final class MockServers {

    private MockServers() {
    }

    /**
     * Stops the server. On JDK 17 a java.net.http client cannot be closed, so its idle
     * connections may still be open and the mock server gives up waiting for them; that says
     * nothing about makeroom, so it is not a test failure.
     */
    public static void destroy(KubernetesMockServer server) {
        try {
            server.destroy();
        } catch (IllegalStateException e) {
            if (!String.valueOf(e.getMessage()).contains("Unable to close MockWebServer")) {
                throw e;
            }
        }
    }
}
