package dev.makeroom.cluster;

import dev.makeroom.support.MockApiClients;
import dev.makeroom.support.MutableClock;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** The debug API's access reviews against an API server that answers them (or does not). */
class DebugAccessTest {

    private KubernetesMockServer server;
    private KubernetesClient client;
    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-26T12:00:00Z"));

    private DebugAccess access(boolean down) {
        server = ReviewingApi.serve(down);
        client = MockApiClients.clientFor(server);
        return DebugAccess.reviewedBy(client, clock);
    }

    @AfterEach
    void stop() {
        client.close();
        MockServers.destroy(server);
    }

    @Test
    void an_authorized_caller_passes_and_its_answers_are_kept_half_a_minute() {
        DebugAccess access = access(false);
        assertThat(access.check("Bearer alice-token", "/debug/simulate", "POST").allowed()).isTrue();
        int asked = server.getRequestCount();
        assertThat(asked).isEqualTo(2); // a TokenReview and a SubjectAccessReview
        assertThat(access.check("Bearer alice-token", "/debug/simulate", "POST").allowed()).isTrue();
        assertThat(server.getRequestCount()).as("kept: asked nothing again").isEqualTo(asked);
        clock.advance(DebugAccess.KEPT_FOR);
        assertThat(access.check("Bearer alice-token", "/debug/simulate", "POST").allowed()).isTrue();
        assertThat(server.getRequestCount()).as("asked again once the time is up").isEqualTo(asked + 2);
    }

    @Test
    void no_token_a_bad_token_and_an_unauthorized_user_are_refused_saying_why() {
        DebugAccess access = access(false);
        assertThat(access.check(null, "/debug/nodes", "GET")).satisfies(v -> {
            assertThat(v.status()).isEqualTo(401);
            assertThat(v.reason()).contains("bearer token");
        });
        assertThat(access.check("Basic YWxpY2U6cHc=", "/debug/nodes", "GET").status()).isEqualTo(401);
        assertThat(access.check("Bearer stolen", "/debug/nodes", "GET")).satisfies(v -> {
            assertThat(v.status()).isEqualTo(401);
            assertThat(v.reason()).contains("does not accept");
        });
        assertThat(access.check("Bearer bob-token", "/debug/nodes", "GET")).satisfies(v -> {
            assertThat(v.status()).isEqualTo(403);
            assertThat(v.reason()).contains("bob may not get /debug/nodes").contains("makeroom-debug");
        });
    }

    @Test
    void an_api_server_that_does_not_review_closes_the_debug_api_rather_than_opening_it() {
        DebugAccess access = access(true);
        assertThat(access.check("Bearer alice-token", "/debug/nodes", "GET")).satisfies(v -> {
            assertThat(v.status()).isEqualTo(503);
            assertThat(v.allowed()).isFalse();
        });
    }
}
