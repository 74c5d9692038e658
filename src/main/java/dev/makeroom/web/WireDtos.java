package dev.makeroom.web;

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
