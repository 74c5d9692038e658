package dev.makeroom.bench;

import dev.makeroom.support.Browser;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Json;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * The page's nodes view on a large cluster, in Debian's Chromium: makeroom watching a generated
 * cluster ({@link ApiStub}, default 5,000 nodes × 30 pods) in its own JVM, the page opened afresh
 * {@code rounds} times. Times, by the browser's clock from the start of each navigation, until the
 * nodes view has drawn (its {@code makeroom:nodes-drawn} mark: the page loaded, {@code /debug/nodes}
 * fetched and parsed, the rows in view drawn), then the time to draw the list's end after a jump
 * there. Checks what it timed: every node counted, only a window of rows in the page, the last node
 * drawn after the jump.
 *
 * <p>{@code ./mvnw -B -Pbench test-compile exec:exec -Dbench.main=dev.makeroom.bench.PageRender
 * -Dbench.args="5000 30 10" -Dbench.jvmArgs=-Xmx4g}
 */
public final class PageRender {

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        int podsPerNode = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        ApiStub api = new ApiStub(new TeamsCluster(nodes, podsPerNode));
        api.prebuild(500);
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), api, false);
        server.init();
        Path log = Files.createTempFile("makeroom-page", ".log");
        try (ServerProcess makeroom = ServerProcess.startLive(server.url("/"), "512m", List.of(), log);
             Browser browser = new Browser()) {
            String page = "http://127.0.0.1:" + makeroom.managementPort + "/debug/page/#/nodes";
            JsonNode all = Json.parse(new ExtenderClient(makeroom.managementPort).get("/debug/nodes").body());
            String lastNode = all.get(all.size() - 1).get("name").asString();
            List<Double> drawn = new ArrayList<>();
            List<Double> jumps = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                browser.open("about:blank");
                browser.open(page);
                WebElement view = browser.view("Nodes");
                String summary = view.findElement(By.className("summary")).getText();
                if (!summary.startsWith(nodes + " of " + nodes + " nodes")) {
                    throw new IllegalStateException("the view did not count every node: " + summary);
                }
                int rows = view.findElements(By.className("row")).size();
                if (rows == 0 || rows > 100) {
                    throw new IllegalStateException(rows + " rows in the page: the list is not drawn as a window");
                }
                drawn.add(((Number) browser.script("return performance.getEntriesByName('makeroom:nodes-drawn')[0].startTime"))
                        .doubleValue());
                Object jump = browser.script("""
                        const rows = document.querySelector('.rows'); const start = performance.now();
                        rows.scrollTop = rows.scrollHeight;
                        rows.dispatchEvent(new Event('scroll'));
                        return new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(
                          [performance.now() - start, rows.querySelector('.row:last-child').dataset.node]))));
                        """);
                List<?> answer = (List<?>) jump;
                String last = String.valueOf(answer.get(1));
                if (!last.equals(lastNode)) {
                    throw new IllegalStateException("after the jump the last row drawn is " + last);
                }
                jumps.add(((Number) answer.get(0)).doubleValue());
            }
            System.out.printf("%d nodes, %d pods: nodes view drawn %s ms after navigation (median %.0f, max %.0f);"
                            + " the list's end drawn %s ms after a jump there; log %s%n", nodes, nodes * podsPerNode,
                    rounded(drawn), median(drawn), drawn.stream().mapToDouble(d -> d).max().orElse(0), rounded(jumps), log);
        } finally {
            server.destroy();
        }
    }

    private static String rounded(List<Double> values) {
        return values.stream().map(v -> String.valueOf(Math.round(v))).toList().toString();
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
