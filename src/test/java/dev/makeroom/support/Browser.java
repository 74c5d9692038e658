package dev.makeroom.support;

import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Debian's Chromium, headless, through Debian's chromedriver: a real browser for the page's tests and
 * its benchmark, with nothing downloaded (.ci/run installs both packages). The flags keep it off the
 * network it would otherwise reach for at every start.
 */
public final class Browser implements AutoCloseable {

    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private final ChromeDriver driver;
    private final Path profile;

    /** Whether Debian's chromium and chromedriver are there to drive. */
    public static boolean installed() {
        return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    }

    /** Skips the test calling it where there is no browser to drive (fails it under CI). */
    public static void needed() {
        ExternalTool.needed(installed(), "Debian's chromium or chromedriver, which the page's tests drive",
                "apt-get install chromium chromium-driver");
    }

    public Browser() throws IOException {
        needed();
        profile = Files.createTempDirectory("makeroom-chromium");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile()).addArguments("--headless=new",
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--window-size=1280,900",
                "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
    }

    public ChromeDriver driver() {
        return driver;
    }

    public void open(String url) {
        driver.get(url);
    }

    /** Waits until the view has drawn (the page marks it not busy) with an h2 saying {@code title}, then returns the view. */
    public WebElement view(String title) {
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> {
            WebElement view = d.findElement(By.id("view"));
            return "false".equals(view.getAttribute("aria-busy"))
                    && view.findElements(By.tagName("h2")).stream().anyMatch(h -> h.getText().equals(title));
        });
        return driver.findElement(By.id("view"));
    }

    public Object script(String script, Object... arguments) {
        return ((JavascriptExecutor) driver).executeScript(script, arguments);
    }

    /** A screenshot of the window, written to {@code file}. */
    public void screenshot(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
    }

    @Override
    public void close() {
        driver.quit();
    }
}
