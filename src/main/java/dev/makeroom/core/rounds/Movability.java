package dev.makeroom.core.rounds;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.room.Disturbance;
import dev.makeroom.core.room.Protection;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Who may be moved to make room for a pending pod (defragmentation's side of the core's
 * {@link Disturbance}): nothing keeps it in place whatever the policy ({@link Round#neverMoved}: a
 * {@link MoveBlocker}, the scope), priority at most the pending pod's, not of its controller, not opted
 * out of defragmentation, not moved already this round and not refused by the Eviction API lately.
 * Whether a pod that may move also lands is proven per set.
 */
final class Movability {

    private final Function<PodInfo, Optional<Kept>> neverMoved;
    private final Set<String> movedThisRound;
    private final Set<String> heldBack;
    // uid -> NONE, NEVER_MOVED or OUT_OF_SCOPE: what neverMoved says, the same for every pending pod
    private final Map<String, Protection> standing = new HashMap<>();

    Movability(Function<PodInfo, Optional<Kept>> neverMoved, Set<String> movedThisRound, Set<String> heldBack) {
        this.neverMoved = neverMoved;
        this.movedThisRound = movedThisRound;
        this.heldBack = heldBack;
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
        return !heldBack.contains(pod.uid()) && pod.defragmentable() && standingOf(pod) == Protection.NONE;
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
        return standingOf(pod);
    }

    private Protection standingOf(PodInfo pod) {
        return standing.computeIfAbsent(pod.uid(), uid -> neverMoved.apply(pod)
                .map(kept -> kept.category() == SkipCategory.OUT_OF_SCOPE ? Protection.OUT_OF_SCOPE
                        : Protection.NEVER_MOVED)
                .orElse(Protection.NONE));
    }
}
