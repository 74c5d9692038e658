package dev.makeroom.core.rounds;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.room.Disturbance;
import dev.makeroom.core.room.Protection;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Who may be moved to make room for a pending pod (defragmentation's side of the core's
 * {@link Disturbance}): nothing {@link MoveBlocker} keeps in place, priority at most the pending pod's,
 * not of its controller, not opted out of defragmentation, not moved already this round and not
 * refused by the Eviction API lately, and in the rescheduler's scope. Whether a pod that may move also
 * lands is proven per set.
 */
final class Movability {

    private final ClusterSnapshot snapshot;
    private final boolean allowLocalStorage;
    private final Set<String> movedThisRound;
    private final Set<String> heldBack;
    private final Scope.Check scope;
    private final Map<String, Boolean> blocked = new HashMap<>(); // uid -> a MoveBlocker applies (the same for every pending pod)
    private final Map<String, Boolean> outOfScope = new HashMap<>(); // uid -> outside the scope (likewise)

    Movability(ClusterSnapshot snapshot, boolean allowLocalStorage, Set<String> movedThisRound, Set<String> heldBack,
               Scope.Check scope) {
        this.snapshot = snapshot;
        this.allowLocalStorage = allowLocalStorage;
        this.movedThisRound = movedThisRound;
        this.heldBack = heldBack;
        this.scope = scope;
    }

    /** Who may be moved for {@code pending}. */
    Disturbance forPending(PodInfo pending) {
        return running -> protectionOf(running, pending);
    }

    /**
     * Whether the pod could be moved for some pending pod this round: what does not depend on the
     * pending pod or on the round's moves so far (a necessary condition of {@link #forPending}'s NONE,
     * whatever the pending pod of at least its priority).
     */
    boolean mayEverMove(PodInfo pod) {
        return !heldBack.contains(pod.uid()) && pod.defragmentable()
                && !blocked.computeIfAbsent(pod.uid(), uid -> MoveBlocker.of(pod, snapshot, allowLocalStorage) != null)
                && !outOfScope.computeIfAbsent(pod.uid(), uid -> !scope.of(pod).in());
    }

    private Protection protectionOf(PodInfo pod, PodInfo pending) {
        if (movedThisRound.contains(pod.uid())) {
            return Protection.MOVED_THIS_ROUND;
        }
        if (heldBack.contains(pod.uid())) {
            return Protection.EVICTION_REFUSED_LATELY;
        }
        if (pod.priority() > pending.priority()) {
            return Protection.PRIORITY_ABOVE;
        }
        if (!pod.defragmentable()) {
            return Protection.DEFRAGMENTATION_OPTED_OUT;
        }
        if (pending.controller() != null && pending.controller().equals(pod.controller())) {
            return Protection.SAME_APPLICATION;
        }
        if (blocked.computeIfAbsent(pod.uid(), uid -> MoveBlocker.of(pod, snapshot, allowLocalStorage) != null)) {
            return Protection.NEVER_MOVED;
        }
        return outOfScope.computeIfAbsent(pod.uid(), uid -> !scope.of(pod).in()) ? Protection.OUT_OF_SCOPE
                : Protection.NONE;
    }
}
