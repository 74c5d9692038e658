package dev.makeroom.mapping;

import java.util.Map;

/** The labels and annotations makeroom reads, and how it reads them. */
final class Annotations {

    static final String ALLOW_PREEMPTION = "makeroom.dev/allow-preemption";
    static final String YUNIKORN_ALLOW_PREEMPTION = "yunikorn.apache.org/allow-preemption";
    static final String ORIGINATOR = "makeroom.dev/originator";
    static final String MIRROR = "kubernetes.io/config.mirror";
    static final String QUEUE = "makeroom.dev/queue";
    static final String YUNIKORN_QUEUE = "yunikorn.apache.org/queue";
    static final String QUEUE_LABEL = "queue";
    static final String APPLICATION = "makeroom.dev/application";
    static final String APPLICATION_ID = "applicationId";
    static final String SPARK_APP_SELECTOR = "spark-app-selector";
    static final String EVICTABLE = "makeroom.dev/evictable";
    static final String DEFRAGMENT = "makeroom.dev/defragment";
    static final String CHECKPOINTED_AT = "makeroom.dev/checkpointed-at";

    private Annotations() {
    }

    /** True when the object carries an allow-preemption annotation that says false. */
    static boolean optedOut(Map<String, String> annotations) {
        return annotations != null
                && ("false".equalsIgnoreCase(trim(annotations.get(ALLOW_PREEMPTION)))
                || "false".equalsIgnoreCase(trim(annotations.get(YUNIKORN_ALLOW_PREEMPTION))));
    }

    /** False when the pod asks never to be moved by the rescheduler. */
    static boolean evictable(Map<String, String> annotations) {
        return annotations == null || !"false".equalsIgnoreCase(trim(annotations.get(EVICTABLE)));
    }

    /** False when the pod asks neither to be moved for another nor to be helped by defragmentation. */
    static boolean defragmentable(Map<String, String> annotations) {
        return annotations == null || !"false".equalsIgnoreCase(trim(annotations.get(DEFRAGMENT)));
    }

    /** The queue a pod names for itself: its makeroom or YuniKorn queue label or annotation, else its {@code queue} label. */
    static String queueHint(Map<String, String> labels, Map<String, String> annotations) {
        for (String key : new String[] {QUEUE, YUNIKORN_QUEUE}) {
            String v = nonBlank(labels.get(key));
            if (v == null) {
                v = nonBlank(annotations.get(key));
            }
            if (v != null) {
                return v;
            }
        }
        return nonBlank(labels.get(QUEUE_LABEL));
    }

    /** The application a pod belongs to, by label; null when it names none. */
    static String application(Map<String, String> labels) {
        for (String key : new String[] {APPLICATION, APPLICATION_ID, SPARK_APP_SELECTOR}) {
            String v = nonBlank(labels.get(key));
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    private static String nonBlank(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    static boolean isTrue(Map<String, String> map, String key) {
        return map != null && "true".equalsIgnoreCase(trim(map.get(key)));
    }

    private static String trim(String s) {
        return s == null ? null : s.trim();
    }
}
