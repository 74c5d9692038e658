package dev.makeroom.mapping;

import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.model.Reservation;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The room makeroom holds on a node for one pending pod, in the node annotation
 * {@code makeroom.dev/reserved-for}: {@code {"pod": "team/big", "uid": "…", "until": "2026-…Z"}}.
 * It lives in the API, not in a replica's memory, so every replica's filter honours it.
 */
public final class ReservationAnnotation {

    public static final String KEY = "makeroom.dev/reserved-for";

    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private ReservationAnnotation() {
    }

    /** The node's reservation, or null when it has none or one makeroom cannot read (then nothing is held). */
    public static Reservation read(Map<String, String> annotations) {
        String json = annotations == null ? null : annotations.get(KEY);
        if (json == null || json.isBlank()) {
            return null;
        }
        try {
            Map<?, ?> doc = JSON.unmarshal(json, Map.class);
            if (doc != null && doc.get("pod") instanceof String pod && doc.get("uid") instanceof String uid
                    && doc.get("until") instanceof String until) {
                int slash = pod.indexOf('/');
                if (slash > 0) {
                    return new Reservation(new PodRef(pod.substring(0, slash), pod.substring(slash + 1), uid),
                            Instant.parse(until));
                }
            }
        } catch (RuntimeException e) { // DateTimeParseException or unreadable JSON: someone else's edit
            return null;
        }
        return null;
    }

    /** The node holding {@code reservation} (any earlier one replaced). */
    public static Node with(Node node, Reservation reservation) {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("pod", reservation.pod().toString());
        value.put("uid", reservation.pod().uid());
        value.put("until", reservation.until().toString());
        return write(node, JSON.asJson(value));
    }

    /** The node without the reservation for {@code uid}; another pod's (a newer one) is kept. */
    public static Node without(Node node, String uid) {
        Reservation held = read(node.getMetadata().getAnnotations());
        if (held != null && !held.pod().uid().equals(uid)) {
            return node;
        }
        return write(node, null);
    }

    private static Node write(Node node, String value) {
        Map<String, String> annotations = new HashMap<>(node.getMetadata().getAnnotations() == null ? Map.of()
                : node.getMetadata().getAnnotations());
        if (value == null) {
            annotations.remove(KEY);
        } else {
            annotations.put(KEY, value);
        }
        node.getMetadata().setAnnotations(annotations);
        return node;
    }
}
