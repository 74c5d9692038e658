package dev.makeroom.core.score;

import java.util.List;
import java.util.Set;

/**
 * Prioritize's side of room held for a pod ({@code Reservation#heldFor}): while a node holding its
 * room is among those asked, that node scores highest and every other node 0, so a scheduler that
 * registers prioritize without filter still leans the pod to where makeroom proved it fits.
 */
public final class HeldRoomScores {

    private HeldRoomScores() {
    }

    /**
     * The rule, for scores held in an array, one per node named by {@code names}: steered in place when
     * a held node is among them (returns true), left alone otherwise.
     */
    public static boolean steer(int[] scores, List<String> names, Set<String> held) {
        if (held.isEmpty()) {
            return false;
        }
        boolean any = false;
        for (int i = 0; i < names.size() && !any; i++) {
            any = held.contains(names.get(i));
        }
        if (!any) {
            return false;
        }
        for (int i = 0; i < names.size(); i++) {
            scores[i] = held.contains(names.get(i)) ? ShieldScorePolicy.MAX_SCORE : 0;
        }
        return true;
    }
}
