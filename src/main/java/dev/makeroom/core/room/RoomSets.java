package dev.makeroom.core.room;

import dev.makeroom.core.model.PodInfo;

import java.util.ArrayList;
import java.util.List;

/**
 * Every set of a given size that makes room on one node: the {@link NodeProblem}'s forced pods and
 * enough of its other ordinary candidates to cover what is short (resources and counts alike, the
 * {@link CandidatePool}'s dimensions). Where {@link RoomMaker} wants the single best set under
 * preemption's objective, a caller that must check each set further (the rescheduler proves that the
 * moved pods land) takes them all for a size and tries them in its own order.
 *
 * <p>Enumeration picks candidates in index order; a branch stops as soon as the picks still to make,
 * each at most the largest amount left of a dimension, cannot cover what that dimension still lacks.
 */
public final class RoomSets {

    private static final int CLOCK_CHECK_INTERVAL = 1024;

    /** The sets of one size, and whether the deadline cut the enumeration short. */
    public record Found(List<List<PodInfo>> sets, boolean timedOut) {
    }

    private final List<PodInfo> forced = new ArrayList<>();
    private final List<PodInfo> optional = new ArrayList<>();
    private final long[] rest; // what is still short once the forced pods have gone
    private final long[][] amounts; // [optional pod][dimension]
    private final long[][] suffixMax; // [i][d]: the largest amount of d among optional pods i..

    private RoomSets(CandidatePool pool) {
        int dims = pool.dims.length;
        rest = pool.need.clone();
        List<long[]> frees = new ArrayList<>();
        for (int i = 0; i < pool.size(); i++) {
            if (pool.forced[i]) {
                forced.add(pool.pods.get(i));
                for (int d = 0; d < dims; d++) {
                    rest[d] -= pool.frees[i][d];
                }
            } else {
                optional.add(pool.pods.get(i));
                frees.add(pool.frees[i]);
            }
        }
        amounts = frees.toArray(new long[0][]);
        suffixMax = new long[amounts.length + 1][dims];
        for (int i = amounts.length - 1; i >= 0; i--) {
            for (int d = 0; d < dims; d++) {
                suffixMax[i][d] = Math.max(suffixMax[i + 1][d], amounts[i][d]);
            }
        }
    }

    /** The sets of {@code problem}'s ordinary candidates; budgets and queue floors are the caller's to check. */
    public static RoomSets of(NodeProblem problem) {
        if (problem.obstacle() != null) {
            throw new IllegalArgumentException("no room can be made on " + problem.node() + ": " + problem.obstacle());
        }
        List<PodInfo> candidates = problem.candidatesUpTo(Tier.ORDINARY);
        return new RoomSets(new CandidatePool(candidates, problem.deficit(), problem.needs(), problem.forced(),
                pod -> List.of(), false, QueueFloors.NONE, WorkPrice.At.NONE));
    }

    /** How many pods every set holds because they must go. */
    public int forcedCount() {
        return forced.size();
    }

    /** Whether taking every candidate would make room; when not, no set of any size does. */
    public boolean coverable() {
        for (int d = 0; d < rest.length; d++) {
            if (rest[d] > 0 && (amounts.length == 0 || rest[d] > sumOf(d))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Every set of exactly {@code size} pods that makes room, leaving out candidates of priority above
     * {@code priorityCap} (a caller's bound: sets holding them cannot beat what it has).
     */
    public Found ofSize(int size, int priorityCap, Deadline deadline) {
        int free = size - forced.size();
        List<List<PodInfo>> out = new ArrayList<>();
        if (free < 0 || free > optional.size()) {
            return new Found(out, false);
        }
        Enumeration enumeration = new Enumeration(free, priorityCap, deadline, out);
        enumeration.choose(rest.clone(), 0, 0);
        return new Found(out, enumeration.timedOut);
    }

    private long sumOf(int d) {
        long sum = 0;
        for (long[] amount : amounts) {
            sum += amount[d];
        }
        return sum;
    }

    private final class Enumeration {
        private final int free;
        private final int priorityCap;
        private final Deadline deadline;
        private final List<List<PodInfo>> out;
        private final int[] picked;
        private boolean timedOut;
        private long steps;

        Enumeration(int free, int priorityCap, Deadline deadline, List<List<PodInfo>> out) {
            this.free = free;
            this.priorityCap = priorityCap;
            this.deadline = deadline;
            this.out = out;
            this.picked = new int[free];
        }

        void choose(long[] need, int from, int count) {
            if (timedOut || (++steps % CLOCK_CHECK_INTERVAL == 0 && deadline.passed())) {
                timedOut = true;
                return;
            }
            int left = free - count;
            for (int d = 0; d < need.length; d++) {
                if (need[d] > 0 && (left == 0 || need[d] > left * suffixMax[from][d])) {
                    return; // the picks left cannot cover what is short
                }
            }
            if (left == 0) {
                List<PodInfo> set = new ArrayList<>(forced);
                for (int i : picked) {
                    set.add(optional.get(i));
                }
                out.add(set);
                return;
            }
            for (int i = from; i <= amounts.length - left; i++) {
                if (optional.get(i).priority() > priorityCap) {
                    continue;
                }
                picked[count] = i;
                for (int d = 0; d < need.length; d++) {
                    need[d] -= amounts[i][d];
                }
                choose(need, i + 1, count + 1);
                for (int d = 0; d < need.length; d++) {
                    need[d] += amounts[i][d];
                }
            }
        }
    }
}
