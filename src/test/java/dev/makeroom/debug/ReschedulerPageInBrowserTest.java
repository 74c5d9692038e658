package dev.makeroom.debug;

import dev.makeroom.support.Browser;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Json;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rescheduler's view in a real browser, on the bundled rescheduler cluster: asked what a round
 * would do now, it shows the moves the debug API's plan holds, each with its policy and reason.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "makeroom.cluster.snapshot=examples/rescheduler-cluster.yaml", "makeroom.rescheduler.enabled=true",
        "makeroom.rescheduler.file=examples/rescheduler.yaml"})
class ReschedulerPageInBrowserTest {

    @LocalManagementPort
    int managementPort;

    @Test
    void a_plan_asked_from_the_page_shows_the_moves_of_the_debug_apis_plan() throws Exception {
        JsonNode plan = Json.parse(new ExtenderClient(managementPort).post("/debug/rescheduler/plan", "application/yaml", "")
                .body());
        List<String> moves = new ArrayList<>();
        plan.get("moves").forEach(m -> moves.add(String.join(" | ", m.get("pod").asString(), m.get("policy").asString(),
                m.get("reason").asString())));
        assertThat(moves).as("the bundled cluster has moves to show").isNotEmpty();
        try (Browser browser = new Browser()) {
            browser.open("http://localhost:" + managementPort + "/debug/page/#/rescheduler");
            WebElement view = browser.view("Rescheduler");
            view.findElement(By.xpath("//button[text()='What would a round do now?']")).click();
            new WebDriverWait(browser.driver(), Duration.ofSeconds(20))
                    .until(d -> !d.findElements(By.cssSelector("#plan table")).isEmpty());
            List<String> shown = view.findElement(By.cssSelector("#plan table")).findElements(By.cssSelector("tbody tr"))
                    .stream().map(row -> {
                        List<WebElement> cells = row.findElements(By.tagName("td"));
                        return String.join(" | ", cells.get(0).getText(), cells.get(1).getText(), cells.get(2).getText());
                    }).toList();
            assertThat(shown).containsExactlyElementsOf(moves);
            browser.screenshot(PageInBrowserTest.SCREENSHOTS.resolve("rescheduler.png"));
        }
    }
}
