package dev.makeroom.web;

import java.util.List;

/**
 * A filter or prioritize request as read by {@link NodesArgsReader}: the pod, and the nodes either
 * by name ({@code NodeNames}, when the scheduler caches nodes) or as full objects ({@code Nodes}),
 * whose items and list metadata are kept raw for the echo.
 */
record NodesArgs(RawJson pod, List<String> names, boolean byName, RawJson listMetadata, List<RawJson> items) {
}
