package dev.makeroom.debug;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The page ({@code /debug/page/}): three files from the jar, served behind the debug API's access
 * check like every route, with nothing fetched from anywhere else. It draws the debug API's own JSON,
 * asked by relative paths, so it also works through the API server
 * ({@code /apis/debug.makeroom.dev/v1/page/}, e.g. by {@code kubectl proxy}).
 */
final class PageAssets {

    private static final MediaType JAVASCRIPT = new MediaType("text", "javascript", StandardCharsets.UTF_8);
    // only the page's own files; style attributes are set by the script
    private static final String POLICY = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline';"
            + " connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private record Asset(byte[] body, MediaType type) {
    }

    private final Map<String, Asset> assets = Map.of(
            "", new Asset(read("index.html"), new MediaType("text", "html", StandardCharsets.UTF_8)),
            "app.js", new Asset(read("app.js"), JAVASCRIPT),
            "app.css", new Asset(read("app.css"), new MediaType("text", "css", StandardCharsets.UTF_8)));

    // the API server's aggregation layer refuses a backend's redirect (502), so the browser is sent on
    private static final byte[] ON_TO_FOLDER = ("<!doctype html><meta charset=\"utf-8\"><title>makeroom</title>"
            + "<meta http-equiv=\"refresh\" content=\"0; url=page/\"><a href=\"page/\">makeroom's page</a>")
            .getBytes(StandardCharsets.UTF_8);

    /** GET /debug/page: on to the page's own folder, where its relative paths resolve, by the page itself. */
    ServerResponse folder(ServerRequest request) {
        return ServerResponse.ok().contentType(new MediaType("text", "html", StandardCharsets.UTF_8))
                .header("Content-Security-Policy", POLICY).body(ON_TO_FOLDER);
    }

    /** GET /debug/page/ and /debug/page/{file}. */
    ServerResponse file(ServerRequest request) {
        String name = request.pathVariables().getOrDefault("file", "");
        Asset asset = assets.get(name);
        if (asset == null) {
            return ServerResponse.status(HttpStatus.NOT_FOUND).contentType(MediaType.APPLICATION_JSON)
                    .body(new DebugDtos.Error("the page has no file " + name + " (open /debug/page/)"));
        }
        return ServerResponse.ok().contentType(asset.type()).header("Content-Security-Policy", POLICY)
                .header("X-Content-Type-Options", "nosniff").header(HttpHeaders.CACHE_CONTROL, "no-cache")
                .body(asset.body());
    }

    private static byte[] read(String file) {
        try (InputStream in = PageAssets.class.getResourceAsStream("/page/" + file)) {
            if (in == null) {
                throw new IllegalStateException("the page's " + file + " is missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
