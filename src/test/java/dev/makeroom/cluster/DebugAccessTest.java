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

    private static DebugCaller bearer(String authorization) {
        return new DebugCaller.Bearer(authorization);
    }

    @AfterEach
    void stop() {
        client.close();
        MockServers.destroy(server);
    }

    @Test
    void an_authorized_caller_passes_and_its_answers_are_kept_half_a_minute() {
        DebugAccess access = access(false);
        assertThat(access.check(bearer("Bearer alice-token"), "/debug/simulate", "POST").allowed()).isTrue();
        int asked = server.getRequestCount();
        assertThat(asked).isEqualTo(2); // a TokenReview and a SubjectAccessReview
        assertThat(access.check(bearer("Bearer alice-token"), "/debug/simulate", "POST").allowed()).isTrue();
        assertThat(server.getRequestCount()).as("kept: asked nothing again").isEqualTo(asked);
        clock.advance(DebugAccess.KEPT_FOR);
        assertThat(access.check(bearer("Bearer alice-token"), "/debug/simulate", "POST").allowed()).isTrue();
        assertThat(server.getRequestCount()).as("asked again once the time is up").isEqualTo(asked + 2);
    }

    @Test
    void no_token_a_bad_token_and_an_unauthorized_user_are_refused_saying_why() {
        DebugAccess access = access(false);
        assertThat(access.check(bearer(null), "/debug/nodes", "GET")).satisfies(v -> {
            assertThat(v.status()).isEqualTo(401);
            assertThat(v.reason()).contains("bearer token");
        });
        assertThat(access.check(bearer("Basic YWxpY2U6cHc="), "/debug/nodes", "GET").status()).isEqualTo(401);
        assertThat(access.check(bearer("Bearer stolen"), "/debug/nodes", "GET")).satisfies(v -> {
            assertThat(v.status()).isEqualTo(401);
            assertThat(v.reason()).contains("does not accept");
        });
        assertThat(access.check(bearer("Bearer bob-token"), "/debug/nodes", "GET")).satisfies(v -> {
            assertThat(v.status()).isEqualTo(403);
            assertThat(v.reason()).contains("bob may not get /debug/nodes").contains("makeroom-debug");
        });
    }

    @Test
    void a_user_the_api_server_asserts_is_only_authorized() {
        DebugAccess access = access(false);
        DebugCaller alice = new DebugCaller.Asserted("alice", java.util.List.of("system:authenticated"), java.util.Map.of());
        assertThat(access.check(alice, "/debug/why", "GET").allowed()).isTrue();
        assertThat(server.getRequestCount()).as("a SubjectAccessReview, no TokenReview").isEqualTo(1);
        DebugCaller bob = new DebugCaller.Asserted("bob", java.util.List.of(), java.util.Map.of());
        assertThat(access.check(bob, "/debug/why", "GET")).satisfies(v -> {
            assertThat(v.status()).isEqualTo(403);
            assertThat(v.reason()).contains("bob may not get /debug/why");
        });
    }

    @Test
    void an_api_server_that_does_not_review_closes_the_debug_api_rather_than_opening_it() {
        DebugAccess access = access(true);
        assertThat(access.check(bearer("Bearer alice-token"), "/debug/nodes", "GET")).satisfies(v -> {
            assertThat(v.status()).isEqualTo(503);
            assertThat(v.allowed()).isFalse();
        });
    }
}
