package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.room.WorkPrice;

import java.util.Locale;

/**
 * The node the kube-scheduler's own heuristic would pick among the candidates it offered, with its
 * victims there: fewest PDB violations, then the lowest highest victim priority, then the lowest sum
 * of victim priorities, then the fewest victims (its pickOneNodeForPreemption, whose last tie-break,
 * start times, is left out), so makeroom's answer can be told and counted beside it
 * ({@code prioritySum}: its victims' priorities added up; {@code workLost}: what they would lose, priced
 * as makeroom's answer is, in milli-units). Candidates naming no victims, or one makeroom does not see,
 * are not weighed.
 */
public record SchedulersChoice(String node, int victims, long prioritySum, long workLost) {

    /** A pick whose work lost is not weighed. */
    public SchedulersChoice(String node, int victims, long prioritySum) {
        this(node, victims, prioritySum, 0);
    }

    /**
     * The pick among the candidates whose victims makeroom sees (offered each, with what their
     * victims' priorities come to), made while the preempt decision looks their victims up to check
     * each is on its node: a lookup in a cold view costs a few cache misses, and there are a thousand.
     */
    static final class Pick {

        private SchedulersChoice best;
        private Candidate bestCandidate;
        private final long[] bestKey = new long[4];

        /** A candidate whose victims makeroom sees, with their highest priority and their priorities' sum. */
        void offer(Candidate candidate, long highest, long sum) {
            int victims = candidate.hintedVictimUids().size();
            if (victims == 0) {
                return; // no victims named: nothing to weigh makeroom's answer against
            }
            long violations = candidate.hintedPdbViolations();
            int c = best == null ? -1 : Long.compare(violations, bestKey[0]);
            if (c == 0) c = Long.compare(highest, bestKey[1]);
            if (c == 0) c = Long.compare(sum, bestKey[2]);
            if (c == 0) c = Long.compare(victims, bestKey[3]);
            if (c < 0) {
                bestKey[0] = violations;
                bestKey[1] = highest;
                bestKey[2] = sum;
                bestKey[3] = victims;
                best = new SchedulersChoice(candidate.node(), victims, sum);
                bestCandidate = candidate;
            }
        }

        /** The best candidate offered, its victims' work priced by {@code price} (looked up in {@code snapshot}); or null. */
        SchedulersChoice best(ClusterSnapshot snapshot, WorkPrice.At price) {
            if (best == null) {
                return null;
            }
            long work = 0;
            for (String uid : bestCandidate.hintedVictimUids()) {
                PodInfo victim = snapshot.pod(uid); // seen: only candidates whose victims makeroom sees are offered
                work += price.of(victim);
            }
            return new SchedulersChoice(best.node(), best.victims(), best.prioritySum(), work);
        }
    }

    /** How makeroom's answer compares, in words: "1 victim where the scheduler's heuristic chose 2 (on node-7)". */
    public String beside(int victims) {
        String mine = victims + (victims == 1 ? " victim" : " victims");
        if (victims == this.victims) {
            return mine + ", as many as the scheduler's heuristic chose (on " + node + ")";
        }
        return mine + " where the scheduler's heuristic chose " + this.victims + " (on " + node + ")";
    }

    /** The same for work lost: "12.50 h of work lost where the scheduler's heuristic would lose 30.00 h". */
    public String besideWork(long mine) {
        return WorkPrice.describe(mine) + String.format(Locale.ROOT, " where the scheduler's heuristic would lose %.2f h",
                WorkPrice.hours(workLost));
    }
}
