package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;

import java.util.List;

/**
 * The node the kube-scheduler's own heuristic would pick among the candidates it offered, with its
 * victims there: fewest PDB violations, then the lowest highest victim priority, then the lowest sum
 * of victim priorities, then the fewest victims (its pickOneNodeForPreemption, whose last tie-break,
 * start times, is left out), so makeroom's answer can be told and counted beside it
 * ({@code prioritySum}: its victims' priorities added up).
 */
public record SchedulersChoice(String node, int victims, long prioritySum) {

    /** The scheduler's pick among candidates whose victims makeroom sees, or null when it offered none. */
    public static SchedulersChoice of(ClusterSnapshot snapshot, List<Candidate> candidates) {
        SchedulersChoice best = null;
        long[] bestKey = null;
        for (Candidate candidate : candidates) {
            long highest = Long.MIN_VALUE;
            long sum = 0;
            boolean known = !candidate.hintedVictimUids().isEmpty();
            for (String uid : candidate.hintedVictimUids()) {
                PodInfo pod = snapshot.pod(uid);
                if (pod == null) {
                    known = false;
                    break;
                }
                highest = Math.max(highest, pod.priority());
                sum += pod.priority();
            }
            if (!known) {
                continue;
            }
            long[] key = {candidate.hintedPdbViolations(), highest, sum, candidate.hintedVictimUids().size()};
            if (bestKey == null || java.util.Arrays.compare(key, bestKey) < 0) {
                bestKey = key;
                best = new SchedulersChoice(candidate.node(), candidate.hintedVictimUids().size(), sum);
            }
        }
        return best;
    }

    /** How makeroom's answer compares, in words: "1 victim where the scheduler's heuristic chose 2 (on node-7)". */
    public String beside(int victims) {
        String mine = victims + (victims == 1 ? " victim" : " victims");
        if (victims == this.victims) {
            return mine + ", as many as the scheduler's heuristic chose (on " + node + ")";
        }
        return mine + " where the scheduler's heuristic chose " + this.victims + " (on " + node + ")";
    }
}
