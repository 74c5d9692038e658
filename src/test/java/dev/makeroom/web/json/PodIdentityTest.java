package dev.makeroom.web.json;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class PodIdentityTest {

    @Test
    void the_pod_a_kube_scheduler_sent_is_known_by_its_uid_and_version() throws IOException {
        byte[] body;
        try (InputStream in = getClass().getResourceAsStream("/fixtures/kube-scheduler-v1.36/names/all-calls/0001-filter.json")) {
            body = in.readAllBytes();
        }
        tools.jackson.databind.JsonNode pod = tools.jackson.databind.json.JsonMapper.builder().build().readTree(body).get("Pod");
        byte[] json = pod.toString().getBytes(StandardCharsets.UTF_8);

        assertThat(PodIdentity.of(json, 0, json.length)).isEqualTo(new PodIdentity(pod.get("metadata").get("uid").asString(),
                Long.parseLong(pod.get("metadata").get("resourceVersion").asString())));
    }

    @Test
    void keys_of_the_same_name_elsewhere_are_not_the_pods() {
        String json = "{\"spec\":{\"uid\":\"wrong\",\"x\":[{\"resourceVersion\":\"9\"}]},\"metadata\":{\"ownerReferences\":"
                + "[{\"uid\":\"owner\"}],\"name\":\"p\",\"n\":1.5e3,\"b\":true,\"resourceVersion\":\"42\",\"uid\":\"u-1\"}}";

        assertThat(PodIdentity.of(bytes(json), 0, json.length())).isEqualTo(new PodIdentity("u-1", 42));
    }

    @Test
    void a_range_of_a_larger_body_is_read_within_its_bounds() {
        String pod = "{\"metadata\":{\"uid\":\"u-2\",\"resourceVersion\":\"7\"}}";
        String body = "{\"Pod\":" + pod + ",\"NodeNames\":[\"a\"]}";
        int from = body.indexOf(pod);

        assertThat(PodIdentity.of(bytes(body), from, from + pod.length())).isEqualTo(new PodIdentity("u-2", 7));
        assertThat(PodIdentity.of(bytes(body), from, from + pod.length() - 20)).isNull();
    }

    /** What is not plainly stated is left to the full translation: never a wrong identity, only none. */
    @ParameterizedTest
    @ValueSource(strings = {
            "{\"metadata\":{\"uid\":\"u\"}}",                                   // no version
            "{\"metadata\":{\"resourceVersion\":\"5\"}}",                       // no uid
            "{\"metadata\":{\"uid\":\"u\\\"x\",\"resourceVersion\":\"5\"}}",    // an escape in the uid
            "{\"metadata\":{\"uid\":\"u\",\"resourceVersion\":\"5a\"}}",        // not a number
            "{\"metadata\":{\"uid\":\"u\",\"resourceVersion\":5}}",             // not a string
            "{\"metadata\":{\"UID\":\"u\",\"resourceVersion\":\"5\"}}",         // spelled otherwise
            "{\"metadata\":{\"uid\":\"\",\"resourceVersion\":\"5\"}}",          // empty uid
            "{\"metadata\":[],\"x\":1}",
            "[1,2]",
            "{\"metadata\":{\"uid\":\"u\",\"resourceVersion\":\"5",
            ""})
    void what_is_not_plainly_stated_is_no_identity(String json) {
        assertThat(PodIdentity.of(bytes(json), 0, json.length())).isNull();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
