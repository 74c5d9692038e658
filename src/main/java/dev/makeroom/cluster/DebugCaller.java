package dev.makeroom.cluster;

import java.util.List;
import java.util.Map;

/**
 * Who asks the debug API, as far as makeroom can tell before it reviews them: a caller with the
 * {@code Authorization} header it sent (a bearer token to review, or nothing), or a user the API
 * server's aggregation layer asserts over its front-proxy certificate ({@link FrontProxy}), already
 * authenticated by the API server.
 */
public sealed interface DebugCaller {

    /** A direct caller; {@code authorization} is its header, or null. */
    record Bearer(String authorization) implements DebugCaller {
    }

    /** A user the API server authenticated and passed on, with its groups and extra attributes. */
    record Asserted(String user, List<String> groups, Map<String, List<String>> extra) implements DebugCaller {
        public Asserted {
            groups = List.copyOf(groups);
            extra = Map.copyOf(extra);
        }
    }
}
