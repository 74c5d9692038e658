package dev.makeroom.core.accounting;

import dev.makeroom.core.model.Resources;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.HashMap;

/**
 * The kube-scheduler's NodeResourcesFit rule: the pod count always, and every resource the pod
 * requests a positive amount of. Resources the pod does not request are not checked.
 */
public final class FitCheck {

    private FitCheck() {
    }

    /** Whether the pod fits; allocation-free, for the hot paths that need only the answer. */
    public static boolean fits(Resources allocatable, Resources requested, Resources podRequests) {
        if (requested.get(Resources.PODS) + 1 > allocatable.get(Resources.PODS)) {
            return false;
        }
        for (int i = 0; i < podRequests.size(); i++) {
            String name = podRequests.name(i);
            long want = podRequests.value(i);
            if (want > 0 && !Resources.PODS.equals(name) && requested.get(name) + want > allocatable.get(name)) {
                return false;
            }
        }
        return true;
    }

    /** The resources that are short, in the pod's order, {@code pods} first; empty when it fits. */
    public static List<String> shortfalls(Resources allocatable, Resources requested, Resources podRequests) {
        List<String> short_ = new ArrayList<>();
        if (requested.get(Resources.PODS) + 1 > allocatable.get(Resources.PODS)) {
            short_.add(Resources.PODS);
        }
        for (int i = 0; i < podRequests.size(); i++) {
            String name = podRequests.name(i);
            long want = podRequests.value(i);
            if (want > 0 && !Resources.PODS.equals(name) && requested.get(name) + want > allocatable.get(name)) {
                short_.add(name);
            }
        }
        return short_;
    }

    /** How much of each short resource must be freed for the pod to fit (positive amounts only). */
    public static Resources deficit(Resources allocatable, Resources requested, Resources podRequests) {
        Map<String, Long> need = null;
        long podsOver = requested.get(Resources.PODS) + 1 - allocatable.get(Resources.PODS);
        if (podsOver > 0) {
            need = new HashMap<>();
            need.put(Resources.PODS, podsOver);
        }
        for (int i = 0; i < podRequests.size(); i++) {
            String name = podRequests.name(i);
            long want = podRequests.value(i);
            long over = requested.get(name) + want - allocatable.get(name);
            if (want > 0 && !Resources.PODS.equals(name) && over > 0) {
                if (need == null) {
                    need = new HashMap<>();
                }
                need.put(name, over);
            }
        }
        return need == null ? Resources.NONE : Resources.of(need);
    }
}
