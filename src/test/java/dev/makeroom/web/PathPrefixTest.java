package dev.makeroom.web;

import dev.makeroom.support.ExtenderClient;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "makeroom.web.prefix=/ext/v1")
class PathPrefixTest {

    @LocalServerPort
    int port;

    @Test
    void the_verbs_move_with_the_configured_prefix() throws Exception {
        ExtenderClient client = new ExtenderClient(port);
        String body = Files.readString(Path.of("examples/requests/filter.json"));

        assertThat(client.post("/ext/v1/filter", body).statusCode()).isEqualTo(200);
        var moved = client.post("/scheduler/filter", body);
        assertThat(moved.statusCode()).isEqualTo(404);
        assertThat(moved.body()).contains("\"Error\"");
    }
}
