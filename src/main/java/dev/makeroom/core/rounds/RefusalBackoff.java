package dev.makeroom.core.rounds;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The pods the Eviction API refused lately (a 429: a budget allowed no disruption at that moment,
 * though its status said otherwise) and how long each stays out of the plans: one round after the first
 * refusal, then 2, 4, … rounds, up to the most the caller gives. A pod it holds back is never sent to the API
 * again before its rounds run out; the policies go on to their next candidates meanwhile. An eviction
 * that happens, or a pod that is gone, ends its record. Not thread-safe: its owner guards it (the
 * rescheduler's rounds and plans run under one lock).
 */
public final class RefusalBackoff {

    private record Held(int refusals, int roundsLeft) {
    }

    private final Map<String, Held> held = new HashMap<>();
    private final Set<String> refusedThisRound = new HashSet<>(); // their rounds start with the next round

    /**
     * Records a refusal of the pod {@code uid}; answers how many rounds it is now held back, at most
     * {@code maxRounds} (the policies' longest backoff over the rounds' interval: it may change).
     */
    public int refused(String uid, int maxRounds) {
        if (maxRounds < 1) {
            throw new IllegalArgumentException("maxRounds must be at least 1, was " + maxRounds);
        }
        Held before = held.get(uid);
        int refusals = before == null ? 1 : before.refusals() + 1;
        int rounds = (int) Math.min(maxRounds, 1L << Math.min(30, refusals - 1));
        held.put(uid, new Held(refusals, rounds));
        refusedThisRound.add(uid);
        return rounds;
    }

    /** The pod was evicted or is gone: its refusals no longer count. */
    public void forget(String uid) {
        held.remove(uid);
    }

    /** The pods to leave out of the next round's plan. */
    public Set<String> heldBack() {
        Set<String> uids = new HashSet<>();
        held.forEach((uid, h) -> {
            if (h.roundsLeft() > 0) {
                uids.add(uid);
            }
        });
        return uids;
    }

    /**
     * A round is over: every pod held back through it has one round less to wait (one refused in it
     * starts waiting with the next). Records of pods not in {@code present} (gone from the cluster) are
     * dropped, so the map stays as small as the refusals.
     */
    public void roundDone(Set<String> present) {
        held.keySet().retainAll(present);
        held.replaceAll((uid, h) -> refusedThisRound.contains(uid) ? h
                : new Held(h.refusals(), Math.max(0, h.roundsLeft() - 1)));
        refusedThisRound.clear();
    }

    /** How many pods are held back now (for the metric). */
    public int size() {
        return heldBack().size();
    }
}
