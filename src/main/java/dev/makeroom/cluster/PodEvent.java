package dev.makeroom.cluster;

import dev.makeroom.core.model.PodRef;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** A Normal Event on a pod from makeroom, as `kubectl describe pod` and event exporters show it. */
final class PodEvent {

    private PodEvent() {
    }

    static Event of(PodRef pod, String reason, String message, Instant at) {
        String now = DateTimeFormatter.ISO_INSTANT.format(at.truncatedTo(ChronoUnit.SECONDS));
        return new EventBuilder()
                .withNewMetadata().withGenerateName(pod.name() + ".makeroom-").withNamespace(pod.namespace()).endMetadata()
                .withNewInvolvedObject().withKind("Pod").withApiVersion("v1").withNamespace(pod.namespace())
                .withName(pod.name()).withUid(pod.uid()).endInvolvedObject()
                .withType("Normal").withReason(reason).withMessage(message)
                .withNewSource().withComponent("makeroom").endSource()
                .withReportingComponent("makeroom").withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                .build();
    }
}
