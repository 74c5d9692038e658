package dev.makeroom.core.score;

import java.util.ArrayList;
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

    /** {@code scores} steered to {@code held}; as they are when no held node is among them. */
    public static List<NodeScore> steer(List<NodeScore> scores, Set<String> held) {
        if (held.isEmpty() || scores.stream().noneMatch(s -> held.contains(s.host()))) {
            return scores;
        }
        List<NodeScore> steered = new ArrayList<>(scores.size());
        for (NodeScore score : scores) {
            steered.add(new NodeScore(score.host(), held.contains(score.host()) ? ShieldScorePolicy.MAX_SCORE : 0));
        }
        return steered;
    }
}
