package dev.makeroom.mapping;

import dev.makeroom.core.model.Avoidance;
import dev.makeroom.core.model.OwnerRef;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node's avoid list in the annotation {@code scheduler.alpha.kubernetes.io/preferAvoidPods}, in the
 * format the kube-scheduler's NodePreferAvoidPods plugin read: entries naming a pod controller, with
 * the eviction's time, reason and message. makeroom's entries carry a reason starting with
 * {@code makeroom} and an expiry time under {@link #EXPIRES}; others' are read but left as they are. At most {@link #MAX_OWN} of makeroom's entries per node, the newest kept.
 */
public final class AvoidPodsAnnotation {

    public static final String KEY = "scheduler.alpha.kubernetes.io/preferAvoidPods";
    static final String EXPIRES = "makeroom.dev/expires";
    static final int MAX_OWN = 32;

    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private AvoidPodsAnnotation() {
    }

    /** The node with an entry for {@code controller} added (an older one for it replaced), expired ones gone. */
    public static Node with(Node node, OwnerRef controller, String reason, String message, Instant now, Duration avoidFor) {
        List<Map<String, Object>> entries = withoutExpired(entries(node), now);
        entries.removeIf(e -> own(e) && controller.uid().equals(uidOf(e)));
        Map<String, Object> podController = new LinkedHashMap<>();
        podController.put("apiVersion", apiVersion(controller.kind()));
        podController.put("kind", controller.kind());
        podController.put("name", controller.name());
        podController.put("uid", controller.uid());
        podController.put("controller", true);
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("podSignature", Map.of("podController", podController));
        entry.put("evictionTime", now.toString());
        entry.put("reason", reason);
        entry.put("message", message);
        entry.put(EXPIRES, now.plus(avoidFor).toString());
        entries.add(entry);
        List<Map<String, Object>> own = entries.stream().filter(AvoidPodsAnnotation::own).toList();
        for (int i = 0; i < own.size() - MAX_OWN; i++) {
            entries.remove(own.get(i)); // oldest first: entries are appended
        }
        return write(node, entries);
    }

    /** The node without makeroom's expired entries. */
    public static Node expired(Node node, Instant now) {
        return write(node, withoutExpired(entries(node), now));
    }

    /** Every entry naming a controller: makeroom's with their expiry, others' without. */
    public static List<Avoidance> avoidances(Map<String, String> annotations) {
        String json = annotations == null ? null : annotations.get(KEY);
        if (json == null) {
            return List.of();
        }
        List<Avoidance> out = new ArrayList<>();
        for (Map<String, Object> entry : parse(json)) {
            String uid = uidOf(entry);
            if (uid != null) {
                boolean own = own(entry);
                Instant until = own && entry.get(EXPIRES) instanceof String at ? parseInstant(at) : null;
                out.add(new Avoidance(uid, until, own));
            }
        }
        return out;
    }

    /** The controller UIDs the node's entries keep off it at {@code now}. */
    public static List<String> avoidedControllers(Map<String, String> annotations, Instant now) {
        return avoidances(annotations).stream().filter(a -> a.activeAt(now)).map(Avoidance::controllerUid).toList();
    }

    private static Instant parseInstant(String at) {
        try {
            return Instant.parse(at);
        } catch (java.time.format.DateTimeParseException e) {
            return Instant.EPOCH; // unreadable: treated as expired, so makeroom removes it
        }
    }

    private static List<Map<String, Object>> withoutExpired(List<Map<String, Object>> entries, Instant now) {
        entries.removeIf(e -> own(e) && e.get(EXPIRES) instanceof String at && !parseInstant(at).isAfter(now));
        return entries;
    }

    private static boolean own(Map<String, Object> entry) {
        return entry.get("reason") instanceof String r && r.startsWith("makeroom");
    }

    @SuppressWarnings("unchecked")
    private static String uidOf(Map<String, Object> entry) {
        if (entry.get("podSignature") instanceof Map<?, ?> signature
                && signature.get("podController") instanceof Map<?, ?> controller) {
            return (String) ((Map<String, Object>) controller).get("uid");
        }
        return null;
    }

    private static List<Map<String, Object>> entries(Node node) {
        Map<String, String> annotations = node.getMetadata().getAnnotations();
        return parse(annotations == null ? null : annotations.get(KEY));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> parse(String json) {
        if (json == null || json.isBlank()) {
            return new ArrayList<>();
        }
        try {
            Map<String, Object> doc = JSON.unmarshal(json, Map.class);
            Object list = doc == null ? null : doc.get("preferAvoidPods");
            return list instanceof List<?> l ? new ArrayList<>((List<Map<String, Object>>) l) : new ArrayList<>();
        } catch (RuntimeException e) {
            return new ArrayList<>(); // not ours to repair; makeroom's entries start a fresh list
        }
    }

    private static Node write(Node node, List<Map<String, Object>> entries) {
        Map<String, String> annotations = new HashMap<>(node.getMetadata().getAnnotations() == null ? Map.of()
                : node.getMetadata().getAnnotations());
        if (entries.isEmpty()) {
            annotations.remove(KEY);
        } else {
            annotations.put(KEY, JSON.asJson(Map.of("preferAvoidPods", entries)));
        }
        node.getMetadata().setAnnotations(annotations);
        return node;
    }

    private static String apiVersion(String kind) {
        return switch (kind == null ? "" : kind) {
            case "ReplicaSet", "StatefulSet", "DaemonSet", "Deployment" -> "apps/v1";
            case "Job", "CronJob" -> "batch/v1";
            default -> "v1";
        };
    }
}
