package dev.makeroom.cluster;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** A Normal Event on a node from makeroom, as `kubectl describe node` shows it (node Events live in "default"). */
final class NodeEvent {

    private NodeEvent() {
    }

    static Event of(String node, String reason, String message, Instant at) {
        String now = DateTimeFormatter.ISO_INSTANT.format(at.truncatedTo(ChronoUnit.SECONDS));
        return new EventBuilder()
                .withNewMetadata().withGenerateName(node + ".makeroom-").withNamespace("default").endMetadata()
                .withNewInvolvedObject().withKind("Node").withApiVersion("v1").withName(node).withUid(node)
                .endInvolvedObject()
                .withType("Normal").withReason(reason).withMessage(message)
                .withNewSource().withComponent("makeroom").endSource()
                .withReportingComponent("makeroom").withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                .build();
    }
}
