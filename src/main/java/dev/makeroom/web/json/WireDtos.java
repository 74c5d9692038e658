package dev.makeroom.web.json;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;
import java.util.Map;

/**
 * The kube-scheduler extender/v1 wire types. Go's structs have no json tags, so the keys are the
 * Go field names; makeroom reads them case-insensitively and writes them PascalCase. The requests
 * are read by streaming readers ({@link NodesArgsReader}, {@link PreemptArgsReader}); these are the
 * answers, and the victims as the preempt answer names them.
 */
public final class WireDtos {

    private WireDtos() {
    }

    public record MetaVictims(@JsonProperty("Pods") List<MetaPod> pods, @JsonProperty("NumPDBViolations") long numPdbViolations) {
    }

    public record MetaPod(@JsonProperty("UID") String uid) {
    }

    public record ExtenderPreemptionResult(@JsonProperty("NodeNameToMetaVictims") Map<String, MetaVictims> nodeNameToMetaVictims) {
    }

    public record ErrorBody(@JsonProperty("Error") String error) {
    }
}
