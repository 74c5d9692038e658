package dev.makeroom.cluster;

import dev.makeroom.support.MutableClock;
import dev.makeroom.support.TestPki;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Whom the aggregation port believes, from the API server's published settings, as they change. */
class FrontProxyTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-27T20:00:00Z"));
    private final AtomicInteger reads = new AtomicInteger();

    private static FrontProxy.Trust trusting(TestPki.Issued ca) {
        return FrontProxy.trustFrom(new ConfigMapBuilder().addToData("requestheader-client-ca-file", ca.certificatePem())
                .addToData("requestheader-allowed-names", "[\"front-proxy-client\"]")
                .addToData("requestheader-username-headers", "[\"X-Remote-User\"]")
                .addToData("requestheader-group-headers", "[\"X-Remote-Group\"]")
                .addToData("requestheader-extra-headers-prefix", "[\"X-Remote-Extra-\"]").build());
    }

    private FrontProxy proxy(Supplier<FrontProxy.Trust> settings) {
        return new FrontProxy(() -> {
            reads.incrementAndGet();
            return settings.get();
        }, () -> { }, clock);
    }

    private static X509Certificate[] chain(TestPki.Issued client) {
        return new X509Certificate[]{client.certificate()};
    }

    private static final Map<String, List<String>> ALICE = Map.of("x-remote-user", List.of("alice"),
            "X-Remote-Group", List.of("devs", "system:authenticated"), "X-Remote-Extra-Scopes%2Fread", List.of("all"));

    @Test
    void the_front_proxy_names_its_user_groups_and_extra_headers_in_any_case() {
        TestPki.Issued ca = TestPki.authority("front-proxy-ca");
        FrontProxy proxy = proxy(() -> trusting(ca));
        FrontProxy.Outcome outcome = proxy.authenticate(chain(ca.issue("front-proxy-client", false)), ALICE);
        assertThat(outcome).isEqualTo(new FrontProxy.Outcome.Asserted(new DebugCaller.Asserted("alice",
                List.of("devs", "system:authenticated"), Map.of("scopes/read", List.of("all")))));
        assertThat(proxy.authenticate(chain(ca.issue("front-proxy-client", false)), Map.of()))
                .isInstanceOf(FrontProxy.Outcome.Unnamed.class);
    }

    @Test
    void a_rotated_ca_is_read_again_and_a_stranger_cannot_make_it_read_more_than_every_half_minute() {
        TestPki.Issued old = TestPki.authority("front-proxy-ca");
        TestPki.Issued rotated = TestPki.authority("front-proxy-ca");
        AtomicReference<TestPki.Issued> published = new AtomicReference<>(old);
        FrontProxy proxy = proxy(() -> trusting(published.get()));
        assertThat(proxy.authenticate(chain(old.issue("front-proxy-client", false)), ALICE))
                .isInstanceOf(FrontProxy.Outcome.Asserted.class);
        assertThat(reads).hasValue(1);

        published.set(rotated);
        X509Certificate[] fresh = chain(rotated.issue("front-proxy-client", false));
        for (int i = 0; i < 50; i++) {
            assertThat(proxy.authenticate(fresh, ALICE)).isInstanceOf(FrontProxy.Outcome.Refused.class);
        }
        assertThat(reads).as("refusals within the half minute ask the API server nothing").hasValue(1);
        clock.advance(FrontProxy.RETRY_AFTER);
        assertThat(proxy.authenticate(fresh, ALICE)).isInstanceOf(FrontProxy.Outcome.Asserted.class);
        assertThat(reads).hasValue(2);
    }

    @Test
    void an_unreadable_configuration_is_503_at_first_and_later_keeps_what_was_read() {
        TestPki.Issued ca = TestPki.authority("front-proxy-ca");
        AtomicReference<Boolean> down = new AtomicReference<>(true);
        FrontProxy proxy = proxy(() -> {
            if (down.get()) {
                throw new KubernetesClientException("no", 500, null);
            }
            return trusting(ca);
        });
        X509Certificate[] client = chain(ca.issue("front-proxy-client", false));
        assertThat(proxy.authenticate(client, ALICE)).isEqualTo(new FrontProxy.Outcome.Refused(503,
                "makeroom cannot read kube-system/extension-apiserver-authentication: HTTP 500"));
        down.set(false);
        clock.advance(FrontProxy.RETRY_AFTER);
        assertThat(proxy.authenticate(client, ALICE)).isInstanceOf(FrontProxy.Outcome.Asserted.class);
        down.set(true);
        clock.advance(FrontProxy.REREAD_AFTER);
        assertThat(proxy.authenticate(client, ALICE)).as("a failed re-read keeps the last settings")
                .isInstanceOf(FrontProxy.Outcome.Asserted.class);
    }

    @Test
    void the_settings_read_as_the_api_server_writes_them() {
        assertThat(FrontProxy.list("[\"X-Remote-User\",\"X-User\"]")).containsExactly("X-Remote-User", "X-User");
        assertThat(FrontProxy.list(null)).isEmpty();
        assertThat(FrontProxy.list("[]")).isEmpty();
        assertThatThrownBy(() -> FrontProxy.list("X-Remote-User")).hasMessageContaining("not a JSON list");
        assertThatThrownBy(() -> FrontProxy.trustFrom(new ConfigMapBuilder().build()))
                .hasMessageContaining("requestheader-client-ca-file");
    }
}
