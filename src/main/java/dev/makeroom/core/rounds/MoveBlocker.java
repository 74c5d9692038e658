package dev.makeroom.core.rounds;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.placement.UnmodelledTerms;
import dev.makeroom.core.queue.QueueTree;
import dev.makeroom.core.room.Eligibility;
import dev.makeroom.core.room.Protection;

import java.util.Optional;

/** Why a running pod is never moved, whatever the policy. */
public enum MoveBlocker {
    NO_CONTROLLER("no controller would recreate it"),
    DAEMON_SET("a DaemonSet pod belongs to its node"),
    GANG_MEMBER("a member of a gang: moving one stops them all"),
    MIRROR("a static (mirror) pod"),
    TERMINATING("already terminating"),
    OPTED_OUT("opted out of preemption"),
    NOT_EVICTABLE("makeroom.dev/evictable is false"),
    SYSTEM_CRITICAL("at or above system-cluster-critical"),
    LOCAL_STORAGE("keeps data on its node (emptyDir or hostPath)"),
    UNCHECKED_CONSTRAINTS("its placement depends on what makeroom does not model (volumes, namespaces chosen by labels)");

    private final String description;

    MoveBlocker(String description) {
        this.description = description;
    }

    public String describe() {
        return description;
    }

    /** What keeps {@code pod} in place; empty when it may be moved. */
    public static Optional<MoveBlocker> of(PodInfo pod, ClusterSnapshot snapshot, boolean allowLocalStorage) {
        return of(pod, snapshot, allowLocalStorage, false);
    }

    /**
     * What keeps {@code pod} in place; empty when it may be moved. {@code withWholeGang}: the pod is
     * asked to move together with every running member of its gang, so its gang does not keep it.
     */
    public static Optional<MoveBlocker> of(PodInfo pod, ClusterSnapshot snapshot, boolean allowLocalStorage,
                                           boolean withWholeGang) {
        if (pod.mirror()) {
            return Optional.of(MIRROR);
        }
        if (pod.controller() == null) {
            return Optional.of(NO_CONTROLLER);
        }
        if (pod.controller().isDaemonSet()) {
            return Optional.of(DAEMON_SET);
        }
        if (pod.gang() != null && !withWholeGang) { // part of a gang is never moved
            return Optional.of(GANG_MEMBER);
        }
        // terminating and opted out (by annotation or PriorityClass) as preemption reads them
        Protection standing = Eligibility.standing(pod, snapshot);
        if (standing == Protection.TERMINATING) {
            return Optional.of(TERMINATING);
        }
        if (standing.isOptOut()) {
            return Optional.of(OPTED_OUT);
        }
        if (!pod.evictable()) {
            return Optional.of(NOT_EVICTABLE);
        }
        if (pod.priority() >= QueueTree.SYSTEM_CRITICAL_PRIORITY) { // the cluster's own components keep their place
            return Optional.of(SYSTEM_CRITICAL);
        }
        if (pod.localStorage() && !allowLocalStorage) {
            return Optional.of(LOCAL_STORAGE);
        }
        return placementChecked(pod, snapshot) ? Optional.empty() : Optional.of(UNCHECKED_CONSTRAINTS);
    }

    /**
     * Whether where the pod may land is something the placement engine can answer: nothing it calls
     * unknown (volumes it does not model, namespaces chosen by labels in the pod's terms or in an
     * existing pod's anti-affinity that could select it). Spread, pod affinity and anti-affinity at
     * any topology are answered, and so no reason to stay.
     */
    public static boolean placementChecked(PodInfo pod, ClusterSnapshot snapshot) {
        return pod.constraints().unmodelled().isEmpty()
                && UnmodelledTerms.of(pod, snapshot.podsWithAntiAffinity()).isEmpty();
    }
}
