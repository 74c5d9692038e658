package dev.makeroom.cluster;

import java.util.Map;

/** The labels and annotations makeroom reads, and how it reads them. */
final class Annotations {

    static final String ALLOW_PREEMPTION = "makeroom.dev/allow-preemption";
    static final String YUNIKORN_ALLOW_PREEMPTION = "yunikorn.apache.org/allow-preemption";
    static final String ORIGINATOR = "makeroom.dev/originator";
    static final String MIRROR = "kubernetes.io/config.mirror";

    private Annotations() {
    }

    /** True when the object carries an allow-preemption annotation that says false. */
    static boolean optedOut(Map<String, String> annotations) {
        return annotations != null
                && ("false".equalsIgnoreCase(trim(annotations.get(ALLOW_PREEMPTION)))
                || "false".equalsIgnoreCase(trim(annotations.get(YUNIKORN_ALLOW_PREEMPTION))));
    }

    static boolean isTrue(Map<String, String> map, String key) {
        return map != null && "true".equalsIgnoreCase(trim(map.get(key)));
    }

    private static String trim(String s) {
        return s == null ? null : s.trim();
    }
}
