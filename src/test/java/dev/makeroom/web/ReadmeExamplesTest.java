package dev.makeroom.web;

import dev.makeroom.support.ExtenderClient;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** Every {@code $ curl} example in the README prints, on the demo cluster, exactly the line below it. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ReadmeExamplesTest {

    private static final Pattern CURL = Pattern.compile("^\\$ curl -s localhost:8080(\\S+) .*-d @(\\S+)$");

    @LocalServerPort
    int port;

    @Test
    void the_readme_curl_examples_print_what_the_readme_says() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("README.md"));
        ExtenderClient client = new ExtenderClient(port);
        int examples = 0;
        for (int i = 0; i < lines.size() - 1; i++) {
            Matcher curl = CURL.matcher(lines.get(i));
            if (!curl.matches()) {
                continue;
            }
            examples++;
            HttpResponse<String> response = client.post(curl.group(1), Files.readString(Path.of(curl.group(2))));
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).as(lines.get(i)).isEqualTo(lines.get(i + 1));
        }
        assertThat(examples).isEqualTo(3);
    }
}
