package dev.makeroom.mapping;

import dev.makeroom.core.model.Gang;
import io.fabric8.kubernetes.api.model.PodSpec;

import java.util.Map;

/**
 * Which gang a pod belongs to, as the systems that form gangs mark their pods, and the gang's minimum
 * where the pod itself says it. Checked in this order (the first mark found decides):
 * <ol>
 *   <li>makeroom's own: label {@code makeroom.dev/gang}, for anything else that forms gangs;</li>
 *   <li>the Workload API (Kubernetes 1.36): {@code spec.schedulingGroup.podGroupName} (1.35 had {@code workloadRef});</li>
 *   <li>the coscheduling plugin: label {@code scheduling.x-k8s.io/pod-group} (or the older
 *       {@code pod-group.scheduling.sigs.k8s.io});</li>
 *   <li>Volcano: annotation {@code scheduling.k8s.io/group-name};</li>
 *   <li>Kueue's pod groups: label {@code kueue.x-k8s.io/pod-group-name}, its size in the annotation
 *       {@code kueue.x-k8s.io/pod-group-total-count} (Kueue admits and stops a pod group whole);</li>
 *   <li>LeaderWorkerSet: labels {@code leaderworkerset.sigs.k8s.io/name} and {@code group-index} (one
 *       group per index), its size in the annotation {@code leaderworkerset.sigs.k8s.io/size} (a group
 *       is recreated whole when one of its pods restarts);</li>
 *   <li>JobSet: label {@code jobset.sigs.k8s.io/jobset-name} (its failure policy restarts every job).</li>
 * </ol>
 * The minimum on the pod: the annotation {@code makeroom.dev/gang-min-member} when the pod carries it,
 * else the group's size where the system puts it on the pod, else {@link Gang#EVERY_MEMBER}: losing
 * any member stops the gang. A PodGroup object of coscheduling, Volcano or the Workload API states the
 * minimum of its gang over all of these ({@link PodGroupKind}, read by the live view).
 */
final class GangMembership {

    static final String GANG = "makeroom.dev/gang";
    static final String GANG_MIN_MEMBER = "makeroom.dev/gang-min-member";
    static final String COSCHEDULING = "scheduling.x-k8s.io/pod-group";
    static final String COSCHEDULING_LEGACY = "pod-group.scheduling.sigs.k8s.io";
    static final String VOLCANO = "scheduling.k8s.io/group-name";
    static final String KUEUE = "kueue.x-k8s.io/pod-group-name";
    static final String KUEUE_TOTAL = "kueue.x-k8s.io/pod-group-total-count";
    static final String LWS = "leaderworkerset.sigs.k8s.io/name";
    static final String LWS_GROUP = "leaderworkerset.sigs.k8s.io/group-index";
    static final String LWS_SIZE = "leaderworkerset.sigs.k8s.io/size";
    static final String JOBSET = "jobset.sigs.k8s.io/jobset-name";

    private GangMembership() {
    }

    /** The pod's gang, or null when it belongs to none. */
    static Gang of(String namespace, PodSpec spec, Map<String, String> labels, Map<String, String> annotations) {
        int stated = count(annotations.get(GANG_MIN_MEMBER));
        String own = nonBlank(labels.get(GANG));
        if (own != null) {
            return new Gang(namespace, "makeroom", own, orEvery(stated));
        }
        String workload = schedulingGroup(spec);
        if (workload != null) {
            return new Gang(namespace, "workload", workload, orEvery(stated));
        }
        String coscheduling = nonBlank(labels.getOrDefault(COSCHEDULING, labels.get(COSCHEDULING_LEGACY)));
        if (coscheduling != null) {
            return new Gang(namespace, "coscheduling", coscheduling, orEvery(stated));
        }
        String volcano = nonBlank(annotations.get(VOLCANO));
        if (volcano != null) {
            return new Gang(namespace, "volcano", volcano, orEvery(stated));
        }
        String kueue = nonBlank(labels.get(KUEUE));
        if (kueue != null) {
            return new Gang(namespace, "kueue", kueue, orEvery(stated > 0 ? stated : count(annotations.get(KUEUE_TOTAL))));
        }
        String lws = nonBlank(labels.get(LWS));
        String group = nonBlank(labels.get(LWS_GROUP));
        if (lws != null && group != null) {
            return new Gang(namespace, "leaderworkerset", lws + "/" + group,
                    orEvery(stated > 0 ? stated : count(annotations.get(LWS_SIZE))));
        }
        String jobSet = nonBlank(labels.get(JOBSET));
        if (jobSet != null) {
            return new Gang(namespace, "jobset", jobSet, orEvery(stated));
        }
        return null;
    }

    /** {@code spec.schedulingGroup.podGroupName}. */
    private static String schedulingGroup(PodSpec spec) {
        return spec.getSchedulingGroup() == null ? null : nonBlank(spec.getSchedulingGroup().getPodGroupName());
    }

    private static int orEvery(int count) {
        return count > 0 ? count : Gang.EVERY_MEMBER;
    }

    /** A positive count, or 0 when absent or not one. */
    private static int count(String text) {
        if (text == null) {
            return 0;
        }
        try {
            int n = Integer.parseInt(text.trim());
            return Math.max(0, n);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String nonBlank(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
