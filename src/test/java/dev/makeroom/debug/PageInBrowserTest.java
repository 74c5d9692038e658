package dev.makeroom.debug;

import dev.makeroom.support.Browser;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page in a real browser (Debian's Chromium), on the demo cluster with its queues: each view shows
 * what the debug API answers, a link opens the view it names, and the keyboard alone gets around.
 * Each view's screenshot is written to docs/page/, so the pictures there are of this page as it is.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "makeroom.queues.file=examples/queues.yaml")
class PageInBrowserTest {

    static final Path SCREENSHOTS = Path.of("docs/page");
    private static Browser browser;

    @LocalManagementPort
    int managementPort;

    @LocalServerPort
    int serverPort;

    @BeforeAll
    static void start() throws Exception {
        browser = Browser.installed() ? new Browser() : null;
    }

    /** Each test skipped, and reported so, where there is no browser (failed under CI). */
    @BeforeEach
    void needsTheBrowser() {
        Browser.needed();
    }

    @AfterAll
    static void stop() {
        if (browser != null) { // null when the browser is missing and the class was skipped
            browser.close();
        }
    }

    private String page(String fragment) {
        return "http://localhost:" + managementPort + "/debug/page/#/" + fragment;
    }

    private JsonNode debug(String path) {
        return Json.parse(new ExtenderClient(managementPort).get(path).body());
    }

    private static Map<String, List<String>> rows(WebElement table) {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        for (WebElement row : table.findElements(By.cssSelector("tbody tr"))) {
            List<String> cells = row.findElements(By.tagName("td")).stream().map(WebElement::getText).toList();
            rows.put(cells.get(0), cells.subList(1, cells.size()));
        }
        return rows;
    }

    @Test
    void the_nodes_view_draws_each_nodes_requested_share_of_each_resource_and_filters_by_label() throws Exception {
        browser.open(page("nodes"));
        WebElement view = browser.view("Nodes");
        JsonNode nodes = debug("/debug/nodes");
        assertThat(view.findElement(By.className("summary")).getText()).startsWith(nodes.size() + " of " + nodes.size() + " nodes");
        for (JsonNode node : nodes) {
            WebElement row = view.findElement(By.cssSelector(".row[data-node='" + node.get("name").asString() + "']"));
            for (String resource : List.of("cpu", "memory", "pods")) {
                long requested = node.get("requested").path(resource).asLong();
                long allocatable = node.get("allocatable").path(resource).asLong();
                WebElement drawn = row.findElement(By.cssSelector(".resource[data-resource='" + resource + "']"));
                assertThat(drawn.getAttribute("data-share")).as(node.get("name") + " " + resource)
                        .isEqualTo(String.valueOf(Math.round(requested * 100.0 / allocatable)));
                assertThat(drawn.findElement(By.className("bar")).getAttribute("aria-label")).startsWith(resource + ": ");
            }
        }
        browser.screenshot(SCREENSHOTS.resolve("nodes.png"));

        browser.open(page("nodes?label=kubernetes.io/hostname=node-b"));
        WebElement filtered = browser.view("Nodes");
        assertThat(filtered.findElements(By.className("row"))).extracting(r -> r.getAttribute("data-node"))
                .containsExactly("node-b");
    }

    @Test
    void the_story_view_opens_on_the_pods_waiting_each_a_link_to_its_story() {
        List<String> pending = new java.util.ArrayList<>();
        debug("/debug/pending").forEach(p -> pending.add(p.get("pod").asString()));
        assertThat(pending).isNotEmpty();
        browser.open(page("pod"));
        WebElement view = browser.view("A pod's story");
        assertThat(rows(view.findElement(By.tagName("table"))).keySet()).containsExactlyElementsOf(pending);
        view.findElement(By.linkText(pending.get(0))).click();
        browser.view("The story of " + pending.get(0));
    }

    @Test
    void a_link_to_a_pod_opens_its_story_with_the_nodes_filters_and_victims_simulate_names() throws Exception {
        JsonNode simulation = Json.parse(new ExtenderClient(managementPort).post("/debug/simulate", "application/json",
                "{\"pod\": \"default/critical-job\"}").body());
        browser.open(page("pod/default/critical-job"));
        WebElement view = browser.view("The story of default/critical-job");
        Map<String, List<String>> rows = rows(view.findElement(By.tagName("table")));

        Set<String> named = new HashSet<>();
        simulation.get("fitsOn").forEach(n -> named.add(n.asString()));
        List.of("doesNotFit", "unresolvable", "unknown").forEach(k -> named.addAll(simulation.get(k).propertyNames()));
        assertThat(rows.keySet()).containsExactlyInAnyOrderElementsOf(named);
        simulation.get("doesNotFit").properties().forEach(e ->
                assertThat(rows.get(e.getKey()).get(0)).isEqualTo("refused: " + e.getValue().asString()));
        for (JsonNode verdict : simulation.get("preemption").get("nodes")) {
            String preemption = rows.get(verdict.get("node").asString()).get(1);
            if (verdict.get("feasible").asBoolean()) {
                verdict.get("victims").forEach(v -> assertThat(preemption).contains(v.get("pod").asString()));
            } else {
                assertThat(preemption).isEqualTo("no: " + verdict.get("detail").asString());
            }
        }
        assertThat(view.findElement(By.className("decision")).getText())
                .contains(simulation.get("preemption").get("detail").asString())
                .contains(String.format(java.util.Locale.ROOT, "%.2f h of work lost",
                        simulation.get("preemption").get("workLostHours").asDouble()));
        browser.screenshot(SCREENSHOTS.resolve("pod-story.png"));

        // a pod of one's own, pasted
        String yaml = Files.readString(Path.of("examples/pods/nightly-report.yaml"));
        JsonNode own = Json.parse(new ExtenderClient(managementPort).post("/debug/simulate", "application/yaml", yaml).body());
        WebElement textarea = view.findElement(By.name("yaml"));
        browser.script("arguments[0].value = arguments[1];", textarea, yaml);
        view.findElement(By.xpath("//button[text()='Simulate it']")).click();
        WebElement story = browser.view("The story of a pod of your own");
        assertThat(story.findElement(By.className("decision")).getText())
                .contains(own.get("preemption").get("outcome").asString());
        assertThat(rows(story.findElement(By.tagName("table"))).keySet()).hasSize(own.get("doesNotFit").size()
                + own.get("fitsOn").size() + own.get("unresolvable").size() + own.get("unknown").size());
    }

    @Test
    void decisions_and_queues_show_what_the_debug_api_holds() throws Exception {
        assertThat(new ExtenderClient(serverPort).post("/scheduler/preempt", "application/json",
                Files.readString(Path.of("examples/requests/preempt.json"))).statusCode()).isEqualTo(200);
        JsonNode decision = debug("/debug/decisions").get(0);
        browser.open(page("decisions"));
        WebElement decisions = browser.view("Decisions");
        WebElement first = decisions.findElement(By.cssSelector("tbody tr"));
        List<String> cells = first.findElements(By.tagName("td")).stream().map(WebElement::getText).toList();
        assertThat(cells.get(1)).isEqualTo(decision.get("pod").asString());
        assertThat(cells.get(2)).isEqualTo(decision.get("outcome").asString());
        assertThat(cells.get(3)).isEqualTo(decision.get("detail").asString());
        JsonNode pick = decision.get("schedulersPick");
        assertThat(cells.get(4)).isEqualTo(pick.isNull() ? "—" : pick.get("node").asString() + ": "
                + pick.get("victims").asInt() + " victims");
        assertThat(cells.get(6)).isEqualTo(String.format(java.util.Locale.ROOT, "%.2f", decision.get("workLostHours").asDouble())
                + (pick.isNull() ? "" : String.format(java.util.Locale.ROOT, " / %.2f", pick.get("workLostHours").asDouble())));
        browser.screenshot(SCREENSHOTS.resolve("decisions.png"));

        JsonNode tree = debug("/debug/queues").get("root");
        browser.open(page("queues"));
        Map<String, List<String>> queues = rows(browser.view("Queues").findElement(By.tagName("table")));
        List<JsonNode> all = new java.util.ArrayList<>();
        collect(tree, all);
        assertThat(queues.keySet()).containsExactlyElementsOf(all.stream().map(q -> q.get("name").asString()).toList());
        for (JsonNode q : all) {
            List<String> shown = queues.get(q.get("name").asString());
            assertThat(shown.get(4)).as("pending").isEqualTo(q.get("pending").asString());
            assertThat(shown.get(5)).as("preempting").isEqualTo(q.get("preempting").asString());
        }
        browser.screenshot(SCREENSHOTS.resolve("queues.png"));
    }

    private static void collect(JsonNode queue, List<JsonNode> into) {
        into.add(queue);
        queue.get("children").forEach(child -> collect(child, into));
    }

    /** Not by a redirect: the API server's aggregation layer refuses those (502); the page sends the browser on. */
    @Test
    void the_address_without_its_slash_leads_to_the_page() {
        assertThat(new ExtenderClient(managementPort).get("/debug/page").statusCode()).isEqualTo(200);
        browser.open("http://localhost:" + managementPort + "/debug/page");
        browser.view("Nodes");
        assertThat(browser.driver().getCurrentUrl()).endsWith("/debug/page/");
    }

    @Test
    void the_keyboard_alone_reaches_the_views_and_the_nodes() {
        browser.open(page("nodes"));
        browser.view("Nodes");
        Actions keys = new Actions(browser.driver());
        String focused = "";
        for (int i = 0; i < 12 && !focused.equals("Decisions"); i++) {
            keys.sendKeys(Keys.TAB).perform();
            focused = String.valueOf(browser.script("return document.activeElement.textContent"));
        }
        assertThat(focused).as("Tab reaches the Decisions link").isEqualTo("Decisions");
        keys.sendKeys(Keys.ENTER).perform();
        browser.view("Decisions");
        assertThat(browser.script("return document.activeElement.id")).as("focus moves to the view").isEqualTo("view");

        browser.open(page("nodes"));
        browser.view("Nodes");
        for (int i = 0; i < 20 && !focused.equals("node-a"); i++) {
            keys.sendKeys(Keys.TAB).perform();
            focused = String.valueOf(browser.script("return document.activeElement.textContent"));
        }
        assertThat(focused).as("Tab reaches the first node's link").isEqualTo("node-a");
        keys.sendKeys(Keys.ENTER).perform();
        assertThat(browser.view("Node node-a").findElements(By.cssSelector("tbody tr"))).isNotEmpty();
    }
}
