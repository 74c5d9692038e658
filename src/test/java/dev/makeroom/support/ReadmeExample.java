package dev.makeroom.support;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code $ curl} example of the README or a page of {@code docs/} with the answer printed below it, so tests can replay
 * exactly what a reader would type. Understands the forms the README uses: GET, or POST with
 * {@code -H 'Content-Type: …'} and {@code -d}/{@code --data-binary} taking {@code @file} or an inline
 * body, or {@code -X POST} with no body, optionally piped through {@code | jq} (which only pretty-prints).
 */
public record ReadmeExample(String file, int line, String command, int port, String path, String contentType, String body,
                            boolean pretty, String printed) {

    private static final Pattern CURL = Pattern.compile("^\\$ curl -s( -X POST)? '?localhost:(\\d+)([^' ]+)'?"
            + "(?: -H 'Content-Type: ([^']+)')?(?: (?:-d|--data-binary) (?:@(\\S+)|'([^']*)'))?( \\| jq)?$");

    /** Fields that differ on every run: when a decision was made, how long it took, when config loaded, until when room is held. */
    private static final Set<String> VARYING = Set.of("at", "micros", "loadedAt", "errorAt", "reservedUntil");

    /** Every example of the README and of the pages in {@code docs/}. */
    public static List<ReadmeExample> all() throws IOException {
        List<ReadmeExample> examples = new ArrayList<>();
        for (Path page : Docs.pages()) {
            examples.addAll(in(page));
        }
        return examples;
    }

    private static List<ReadmeExample> in(Path page) throws IOException {
        List<String> lines = Files.readAllLines(page);
        List<ReadmeExample> examples = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).startsWith("$ curl")) {
                continue;
            }
            Matcher curl = CURL.matcher(lines.get(i));
            if (!curl.matches()) {
                throw new IllegalStateException(page + " line " + (i + 1) + " is a curl example of an unknown form: "
                        + lines.get(i));
            }
            StringBuilder printed = new StringBuilder();
            for (int j = i + 1; j < lines.size() && !lines.get(j).startsWith("```") && !lines.get(j).startsWith("$ "); j++) {
                printed.append(printed.isEmpty() ? "" : "\n").append(lines.get(j));
            }
            String body = curl.group(5) != null ? Files.readString(Path.of(curl.group(5))) : curl.group(6);
            if (body == null && curl.group(1) != null) {
                body = ""; // -X POST without a body
            }
            examples.add(new ReadmeExample(page.toString(), i + 1, lines.get(i), Integer.parseInt(curl.group(2)), curl.group(3),
                    curl.group(4), body, curl.group(7) != null, printed.toString()));
        }
        return examples;
    }

    /** Sends the example to a running makeroom whose ports stand in for 8080 and 8081. */
    public HttpResponse<String> replay(int serverPort, int managementPort) {
        ExtenderClient client = new ExtenderClient(port == 8081 ? managementPort : serverPort);
        return body == null ? client.get(path) : client.post(path, contentType, body);
    }

    /** The printed answer with the varying fields taken out. */
    public JsonNode expected() {
        return steady(printed);
    }

    /** An answer parsed, with the varying fields taken out so it compares with the printed one. */
    public static JsonNode steady(String answer) {
        JsonNode tree = Json.parse(answer);
        dropVarying(tree);
        return tree;
    }

    private static void dropVarying(JsonNode node) {
        if (node instanceof ObjectNode object) {
            VARYING.forEach(object::remove);
        }
        node.values().forEach(ReadmeExample::dropVarying);
    }
}
