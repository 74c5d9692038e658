package dev.makeroom.process;

import dev.makeroom.support.Json;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class JsonErrorBodyTest {

    @Test
    void any_message_reads_back_as_the_one_field_of_a_json_object() {
        String message = "a \"quoted\" path\\with\na newline and a tab\t: é";
        String body = new String(JsonErrorReportValve.errorBody("error", message), StandardCharsets.UTF_8);
        assertThat(Json.parse(body).get("error").asString()).isEqualTo(message);
        assertThat(Json.parse(body).size()).isEqualTo(1);
    }
}
