package dev.makeroom.web.json;

import dev.makeroom.core.model.RequestedNodes;

import java.util.List;

/**
 * A filter or prioritize request as read by {@link NodesArgsReader}: the pod, and the nodes either
 * by name ({@code NodeNames}, when the scheduler caches nodes) or as full objects ({@code Nodes}),
 * whose items and list metadata are kept raw for the echo. Either way {@code nodes} holds the
 * names in the request's order, with their rows in the node table they were read against.
 */
public record NodesArgs(RawJson pod, RequestedNodes nodes, RawJson listMetadata, List<RawJson> items) {

    public List<String> names() {
        return nodes.names();
    }

    /** Whether the nodes came as names; otherwise {@code items} holds the node objects, in the order of {@code names}. */
    public boolean byName() {
        return items == null;
    }
}
