package dev.makeroom.core.accounting;

import dev.makeroom.core.model.Resources;

import java.util.ArrayList;
import java.util.List;

/**
 * The kube-scheduler's NodeResourcesFit rule: the pod count always, and every resource the pod
 * requests a positive amount of. Resources the pod does not request are not checked.
 */
public final class FitCheck {

    private FitCheck() {
    }

    /** Whether the pod fits; allocation-free, for the hot paths that need only the answer. */
    public static boolean fits(Resources allocatable, Resources requested, Resources podRequests) {
        return shortMask(allocatable, requested, podRequests) == 0;
    }

    /**
     * What is short, as bits, without allocating: bit 0 the pod count, bit i + 1 the pod's i-th
     * requested resource ({@link Resources#name(int)}); 0 when the pod fits.
     */
    public static long shortMask(Resources allocatable, Resources requested, Resources podRequests) {
        // free = allocatable - requested: amounts are never negative, so unlike requested + want it cannot overflow
        long mask = allocatable.get(Resources.PODS) - requested.get(Resources.PODS) < 1 ? 1 : 0;
        for (int i = 0; i < podRequests.size() && i < 63; i++) {
            String name = podRequests.name(i);
            long want = podRequests.value(i);
            if (want > 0 && !Resources.PODS.equals(name) && want > allocatable.get(name) - requested.get(name)) {
                mask |= 1L << (i + 1);
            }
        }
        return mask;
    }

    /**
     * Whether a short resource of {@code shortMask} is one the pod asks more of than the node has at all:
     * from Kubernetes 1.34 the scheduler then answers UnschedulableAndUnresolvable, since no eviction can help
     * (never for the pod count).
     */
    public static boolean beyondAllocatable(long shortMask, Resources allocatable, Resources podRequests) {
        for (int i = 0; i < podRequests.size() && i < 63; i++) {
            if ((shortMask & (1L << (i + 1))) != 0 && podRequests.value(i) > allocatable.get(podRequests.name(i))) {
                return true;
            }
        }
        return false;
    }

    /** How much of each short resource must be freed for the pod to fit (positive amounts only). */
    public static Resources deficit(Resources allocatable, Resources requested, Resources podRequests) {
        long podsOver = requested.get(Resources.PODS) + 1 - allocatable.get(Resources.PODS);
        int count = podsOver > 0 ? 1 : 0;
        for (int i = 0; i < podRequests.size(); i++) {
            count += over(allocatable, requested, podRequests, i) > 0 ? 1 : 0;
        }
        if (count == 0) {
            return Resources.NONE;
        }
        // counted first, then filled: this runs for every candidate node of a preemption
        String[] names = new String[count];
        long[] amounts = new long[count];
        int n = 0;
        if (podsOver > 0) {
            names[n] = Resources.PODS;
            amounts[n++] = podsOver;
        }
        for (int i = 0; i < podRequests.size(); i++) {
            long over = over(allocatable, requested, podRequests, i);
            if (over > 0) {
                names[n] = podRequests.name(i);
                amounts[n++] = over;
            }
        }
        return Resources.ofArrays(names, amounts);
    }

    /** How far the pod's i-th request goes over what is free, when it asks a positive amount of a resource other than pods. */
    private static long over(Resources allocatable, Resources requested, Resources podRequests, int i) {
        String name = podRequests.name(i);
        long want = podRequests.value(i);
        return want > 0 && !Resources.PODS.equals(name) ? requested.get(name) + want - allocatable.get(name) : 0;
    }

    /** The kube-scheduler's wording for the shortfalls of {@link #shortMask}. */
    public static String describe(long shortMask, Resources podRequests) {
        List<String> parts = new ArrayList<>();
        if ((shortMask & 1) != 0) {
            parts.add("Too many pods");
        }
        for (int i = 0; i < podRequests.size() && i < 63; i++) {
            if ((shortMask & (1L << (i + 1))) != 0) {
                parts.add("Insufficient " + podRequests.name(i));
            }
        }
        return String.join(", ", parts);
    }
}
