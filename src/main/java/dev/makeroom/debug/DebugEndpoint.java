package dev.makeroom.debug;

import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * One route of the debug API, with what it answers: the routes are registered from these, and
 * {@code GET /debug} lists them, so the index cannot drift from what is served.
 */
record DebugEndpoint(String method, String path, String what, HandlerFunction<ServerResponse> handler) {

    /** What {@code GET /debug} shows of it. */
    record Listed(String method, String path, String what) {
    }

    Listed listed() {
        return new Listed(method, path, what);
    }
}
