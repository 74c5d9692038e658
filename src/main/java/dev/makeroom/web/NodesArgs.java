package dev.makeroom.web;

import java.util.List;

/**
 * A filter or prioritize request as read by {@link NodesArgsReader}: the pod, and the nodes either
 * by name ({@code NodeNames}, when the scheduler caches nodes) or as full objects ({@code Nodes}),
 * whose items and list metadata are kept raw for the echo.
 */
record NodesArgs(RawJson pod, List<String> names, RawJson listMetadata, List<RawJson> items) {

    /** Whether the nodes came as names; otherwise {@code items} holds the node objects, in the order of {@code names}. */
    boolean byName() {
        return items == null;
    }
}
