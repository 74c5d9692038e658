package dev.makeroom.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import tools.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

/**
 * The kube-scheduler extender/v1 wire types. Go's structs have no json tags, so the keys are the
 * Go field names; makeroom reads them case-insensitively and writes them PascalCase.
 */
final class WireDtos {

    private WireDtos() {
    }

    /** Filter and prioritize request. */
    record ExtenderArgs(@JsonProperty("Pod") JsonNode pod,
                        @JsonProperty("Nodes") NodeList nodes,
                        @JsonProperty("NodeNames") JsonNode nodeNames) {
    }

    /** A v1.NodeList; items are kept as received so the full-object answer can echo them. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record NodeList(@JsonProperty("metadata") JsonNode metadata, @JsonProperty("items") List<JsonNode> items) {
    }

    record ExtenderFilterResult(@JsonProperty("Nodes") NodeList nodes,
                                @JsonProperty("NodeNames") List<String> nodeNames,
                                @JsonProperty("FailedNodes") Map<String, String> failedNodes,
                                @JsonProperty("FailedAndUnresolvableNodes") Map<String, String> failedAndUnresolvableNodes,
                                @JsonProperty("Error") String error) {
    }

    record HostPriority(@JsonProperty("Host") String host, @JsonProperty("Score") long score) {
    }

    record ExtenderPreemptionArgs(@JsonProperty("Pod") JsonNode pod,
                                  @JsonProperty("NodeNameToVictims") Map<String, Victims> nodeNameToVictims,
                                  @JsonProperty("NodeNameToMetaVictims") Map<String, MetaVictims> nodeNameToMetaVictims) {
    }

    /** Victims as full pods; only their UIDs are read. */
    record Victims(@JsonProperty("Pods") List<VictimPod> pods, @JsonProperty("NumPDBViolations") long numPdbViolations) {
    }

    record VictimPod(@JsonProperty("metadata") VictimMeta metadata) {
    }

    record VictimMeta(@JsonProperty("uid") String uid) {
    }

    record MetaVictims(@JsonProperty("Pods") List<MetaPod> pods, @JsonProperty("NumPDBViolations") long numPdbViolations) {
    }

    record MetaPod(@JsonProperty("UID") String uid) {
    }

    record ExtenderPreemptionResult(@JsonProperty("NodeNameToMetaVictims") Map<String, MetaVictims> nodeNameToMetaVictims) {
    }

    record ErrorBody(@JsonProperty("Error") String error) {
    }
}
