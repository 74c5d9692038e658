package dev.makeroom.cluster;

import dev.makeroom.core.model.PodRef;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * A Normal Event from makeroom on a pod or a node, as `kubectl describe` and event exporters show it
 * (a node's Events live in "default").
 */
final class MakeroomEvent {

    private MakeroomEvent() {
    }

    static Event onPod(PodRef pod, String reason, String message, Instant at) {
        return of("Pod", pod.namespace(), pod.namespace(), pod.name(), pod.uid(), reason, message, at);
    }

    static Event onNode(String node, String reason, String message, Instant at) {
        return of("Node", "default", null, node, node, reason, message, at); // a node is in no namespace
    }

    /** The Event, kept in {@code namespace}, on the object {@code kind} {@code objectNamespace}/{@code name}. */
    private static Event of(String kind, String namespace, String objectNamespace, String name, String uid,
                            String reason, String message, Instant at) {
        String now = DateTimeFormatter.ISO_INSTANT.format(at.truncatedTo(ChronoUnit.SECONDS));
        return new EventBuilder()
                .withNewMetadata().withGenerateName(name + ".makeroom-").withNamespace(namespace).endMetadata()
                .withNewInvolvedObject().withKind(kind).withApiVersion("v1").withNamespace(objectNamespace)
                .withName(name).withUid(uid).endInvolvedObject()
                .withType("Normal").withReason(reason).withMessage(message)
                .withNewSource().withComponent("makeroom").endSource()
                .withReportingComponent("makeroom").withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                .build();
    }
}
