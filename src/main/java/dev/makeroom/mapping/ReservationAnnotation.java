package dev.makeroom.mapping;

import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.model.Reservation;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The room makeroom holds on a node, in the node annotation {@code makeroom.dev/reserved-for}: one
 * entry {@code {"pod": "team/big", "uid": "…", "until": "2026-…Z"}} for a pending pod, or a JSON array of
 * entries when the node holds several. A moved pod's landing is an entry naming the moved pod, with
 * {@code "replacementOf": {"controller": uid, "name": …, "priority": n, "since": "…Z"}} (name only for a
 * StatefulSet's pod). It lives in the API, not in a replica's memory, so every replica's filter honours
 * it, and a new leader finds the landings its predecessor opened.
 */
public final class ReservationAnnotation {

    public static final String KEY = "makeroom.dev/reserved-for";

    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private ReservationAnnotation() {
    }

    /** The node's reservations; an entry makeroom cannot read is left out (it holds nothing). */
    public static List<Reservation> read(Map<String, String> annotations) {
        String json = annotations == null ? null : annotations.get(KEY);
        if (json == null || json.isBlank()) {
            return List.of();
        }
        Object doc;
        try {
            doc = JSON.unmarshal(json, Object.class);
        } catch (RuntimeException e) { // unreadable JSON: someone else's edit
            return List.of();
        }
        List<Reservation> read = new ArrayList<>();
        for (Object entry : doc instanceof List<?> list ? list : List.of(doc == null ? "" : doc)) {
            Reservation reservation = entry instanceof Map<?, ?> map ? entry(map) : null;
            if (reservation != null) {
                read.add(reservation);
            }
        }
        return read;
    }

    private static Reservation entry(Map<?, ?> doc) {
        try {
            if (doc.get("pod") instanceof String pod && doc.get("uid") instanceof String uid
                    && doc.get("until") instanceof String until) {
                int slash = pod.indexOf('/');
                if (slash <= 0) {
                    return null;
                }
                PodRef ref = new PodRef(pod.substring(0, slash), pod.substring(slash + 1), uid);
                Object replacement = doc.get("replacementOf");
                if (replacement == null) {
                    return new Reservation(ref, Instant.parse(until));
                }
                if (replacement instanceof Map<?, ?> of && of.get("controller") instanceof String controller
                        && of.get("priority") instanceof Number priority && of.get("since") instanceof String since) {
                    return new Reservation(ref, Instant.parse(until), new Reservation.Replacement(controller,
                            of.get("name") instanceof String name ? name : null, priority.intValue(), Instant.parse(since)));
                }
            }
        } catch (RuntimeException e) { // DateTimeParseException: someone else's edit
            return null;
        }
        return null;
    }

    /** The node holding {@code reservation} too (an earlier one for the same pod replaced). */
    public static Node with(Node node, Reservation reservation) {
        return with(node, reservation, Instant.MIN); // no entry's time is up before the first instant
    }

    /**
     * As {@link #with(Node, Reservation)}, dropping the entries whose time is up at {@code now}: for a
     * writer nothing releases after (a gang's holds, without the rescheduler).
     */
    public static Node with(Node node, Reservation reservation, Instant now) {
        List<Reservation> held = new ArrayList<>(read(node.getMetadata().getAnnotations()));
        held.removeIf(r -> r.pod().uid().equals(reservation.pod().uid()) || !r.until().isAfter(now));
        held.add(reservation);
        return write(node, held);
    }

    /** The node without the reservation for the pod with {@code uid}; the others are kept. */
    public static Node without(Node node, String uid) {
        List<Reservation> held = new ArrayList<>(read(node.getMetadata().getAnnotations()));
        if (!held.removeIf(r -> r.pod().uid().equals(uid))) {
            return node;
        }
        return write(node, held);
    }

    private static Object json(Reservation reservation) {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("pod", reservation.pod().toString());
        value.put("uid", reservation.pod().uid());
        value.put("until", reservation.until().toString());
        Reservation.Replacement replacement = reservation.replacement();
        if (replacement != null) {
            Map<String, Object> of = new LinkedHashMap<>();
            of.put("controller", replacement.controllerUid());
            if (replacement.name() != null) {
                of.put("name", replacement.name());
            }
            of.put("priority", replacement.priority());
            of.put("since", replacement.since().toString());
            value.put("replacementOf", of);
        }
        return value;
    }

    /** One entry as an object (as a single pending pod's hold has always been written), several as an array. */
    private static Node write(Node node, List<Reservation> held) {
        Map<String, String> annotations = new HashMap<>(node.getMetadata().getAnnotations() == null ? Map.of()
                : node.getMetadata().getAnnotations());
        if (held.isEmpty()) {
            annotations.remove(KEY);
        } else {
            annotations.put(KEY, JSON.asJson(held.size() == 1 ? json(held.get(0))
                    : held.stream().map(ReservationAnnotation::json).toList()));
        }
        node.getMetadata().setAnnotations(annotations);
        return node;
    }
}
