package dev.makeroom.core.preemption;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.room.InfeasibleReason;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.Objective;
import dev.makeroom.core.room.WorkRank;
import dev.makeroom.core.room.SearchStats;
import dev.makeroom.core.room.Strategy;
import dev.makeroom.core.room.TieBreak;
import dev.makeroom.core.room.VictimSet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link PreemptionDecision} packed to be kept: every candidate node's verdict in columns of
 * primitives (a few arrays per decision instead of a handful of objects per node), unpacked into
 * the same decision when it is read.
 *
 * <p>Why: the debug API keeps the last 200 decisions of up to 500 nodes each. Kept as objects, the
 * decisions made since the last young collection are live when it runs, and copying their hundreds
 * of thousands of small objects was that collection's pause, 10–30 ms, the preempt verb's p99.
 * Arrays of primitives are copied whole, in microseconds. Node names and victims are the snapshot's
 * own objects, kept by reference. Objectives are kept once per distinct value (the nodes a bound
 * settled against the best are alike, often all of them), search statistics, details and PDB
 * violations only where there are any, and counts and objective numbers in chars (a value too large
 * for one is kept aside), so a decision of 500 nodes keeps about 9 KB: what every young collection
 * under preemption load copies is the last 200 of these.
 */
public final class PackedDecision {

    private static final int OBJECTIVE_WIDTH = 5 + TieBreak.COUNT;
    private static final byte FEASIBLE = 1;
    private static final byte PROVEN_OPTIMAL = 2;
    private static final byte LAST_RESORT = 4;
    private static final byte DOMINATED = 8;
    private static final int REASON_SHIFT = 4; // a flag byte's high half: the InfeasibleReason's ordinal + 1, 0 for none
    private static final char SPILLED = Character.MAX_VALUE; // a small column's value too large to hold: see its spill

    static {
        if (InfeasibleReason.values().length >= 1 << (8 - REASON_SHIFT)) {
            throw new ExceptionInInitializerError("InfeasibleReason outgrew the flag byte's high half");
        }
    }

    private final PodRef pod;
    private final DecisionOutcome outcome;
    private final String detail;
    private final Strategy strategy;
    private final long nanos;
    private final SchedulersChoice schedulers;
    private final long workLost;
    private final WorkRank workRank;     // one per decision: every node's search ranked work alike
    private final int[] chosen;          // indexes into the verdicts, in the answer's order
    private final String[] nodes;
    private final byte[] flags;          // the bits above, and the reason in the high half
    // columns of chars, not ints (the young collections copy the log's recent decisions): a value
    // of SPILLED or more is kept in the column's spill instead
    private final char[] victimCounts;   // node i's victims follow those of the nodes before it in victims
    private final Sparse<Integer> victimCountSpill;
    private final PodInfo[] victims;
    private final Sparse<Integer> pdbViolations; // where not 0
    private final char[] objectiveOf;    // per feasible node, which of the distinct objectives is its own
    private final Sparse<Integer> objectiveOfSpill;
    private final long[] objectives;     // the distinct objectives, OBJECTIVE_WIDTH components each
    private final Sparse<String> details;
    private final Sparse<SearchStats> stats; // where a search ran (the rest: SearchStats.NONE)

    private PackedDecision(PreemptionDecision decision) {
        List<NodeVerdict> verdicts = decision.verdicts();
        int n = verdicts.size();
        pod = decision.pod();
        outcome = decision.outcome();
        detail = decision.detail();
        strategy = decision.strategy();
        nanos = decision.nanos();
        schedulers = decision.schedulers();
        workLost = decision.workLost();
        workRank = verdicts.stream().filter(NodeVerdict::isFeasible).map(v -> v.victims().objective().workRank())
                .findFirst().orElse(WorkRank.FIRST_TIE_BREAK);
        nodes = new String[n];
        flags = new byte[n];
        victimCounts = new char[n];
        victimCountSpill = new Sparse<>();
        pdbViolations = new Sparse<>();
        objectiveOf = new char[n];
        objectiveOfSpill = new Sparse<>();
        details = new Sparse<>();
        stats = new Sparse<>();
        Map<Objective, Integer> distinct = new LinkedHashMap<>(); // numbered in order, packed below
        int victimCount = 0;
        for (NodeVerdict v : verdicts) {
            victimCount += v.isFeasible() ? v.victims().victims().size() : 0;
        }
        victims = new PodInfo[victimCount];
        int at = 0;
        for (int i = 0; i < n; i++) {
            NodeVerdict v = verdicts.get(i);
            nodes[i] = v.node();
            flags[i] = (byte) ((v.isFeasible() ? FEASIBLE : 0) | (v.provenOptimal() ? PROVEN_OPTIMAL : 0)
                    | (v.lastResort() ? LAST_RESORT : 0) | (v.dominated() ? DOMINATED : 0)
                    | (v.reason() == null ? 0 : v.reason().ordinal() + 1) << REASON_SHIFT);
            details.put(i, v.detail());
            stats.put(i, v.stats().equals(SearchStats.NONE) ? null : v.stats());
            if (v.isFeasible()) {
                for (PodInfo victim : v.victims().victims()) {
                    victims[at++] = victim;
                }
                small(victimCounts, victimCountSpill, i, v.victims().victims().size());
                pdbViolations.put(i, v.victims().pdbViolations() == 0 ? null : v.victims().pdbViolations());
                small(objectiveOf, objectiveOfSpill, i,
                        distinct.computeIfAbsent(v.victims().objective(), o -> distinct.size()));
            }
        }
        objectives = new long[OBJECTIVE_WIDTH * distinct.size()];
        distinct.forEach(this::pack);
        chosen = new int[decision.chosen().size()];
        for (int c = 0; c < chosen.length; c++) {
            chosen[c] = indexOf(verdicts, decision.chosen().get(c));
        }
    }

    /**
     * Where {@code verdict} is among {@code verdicts}: an answered node is one of them itself, found by
     * identity without comparing whole verdicts; an equal one otherwise (-1: none, not kept).
     */
    private static int indexOf(List<NodeVerdict> verdicts, NodeVerdict verdict) {
        for (int i = 0; i < verdicts.size(); i++) {
            if (verdicts.get(i) == verdict) {
                return i;
            }
        }
        return verdicts.indexOf(verdict);
    }

    public static PackedDecision of(PreemptionDecision decision) {
        return new PackedDecision(decision);
    }

    /** The pod the decision was for. */
    public PodRef pod() {
        return pod;
    }

    /** The decision as it was made. */
    public PreemptionDecision unpack() {
        List<NodeVerdict> verdicts = new ArrayList<>(nodes.length);
        int from = 0;
        for (int i = 0; i < nodes.length; i++) {
            verdicts.add(verdict(i, from));
            from += (flags[i] & FEASIBLE) != 0 ? read(victimCounts, victimCountSpill, i) : 0;
        }
        List<NodeVerdict> answered = new ArrayList<>(chosen.length);
        for (int c : chosen) {
            if (c >= 0) {
                answered.add(verdicts.get(c));
            }
        }
        return new PreemptionDecision(pod, outcome, detail, strategy, verdicts, answered, nanos, schedulers, workLost);
    }

    /** Node {@code i}'s verdict, its victims (if any) from {@code victims[from]}. */
    private NodeVerdict verdict(int i, int from) {
        SearchStats searched = stats.get(i);
        VictimSet set = null;
        if ((flags[i] & FEASIBLE) != 0) {
            int o = OBJECTIVE_WIDTH * read(objectiveOf, objectiveOfSpill, i);
            Integer violations = pdbViolations.get(i);
            set = new VictimSet(Arrays.asList(victims).subList(from, from + read(victimCounts, victimCountSpill, i)),
                    violations == null ? 0 : violations,
                    new Objective(objectives[o], objectives[o + 1], objectives[o + 2], objectives[o + 3],
                            objectives[o + 4], Arrays.copyOfRange(objectives, o + 5, o + OBJECTIVE_WIDTH), workRank));
        }
        int reason = (flags[i] & 0xFF) >>> REASON_SHIFT;
        return new NodeVerdict(nodes[i], set, reason == 0 ? null : InfeasibleReason.values()[reason - 1],
                details.get(i), (flags[i] & PROVEN_OPTIMAL) != 0, (flags[i] & LAST_RESORT) != 0,
                (flags[i] & DOMINATED) != 0, searched == null ? SearchStats.NONE : searched);
    }

    /** Puts {@code value} (never negative) at {@code i} of a char column, or in its spill when too large. */
    private static void small(char[] column, Sparse<Integer> spill, int i, int value) {
        if (value < SPILLED) {
            column[i] = (char) value;
        } else {
            column[i] = SPILLED;
            spill.put(i, value);
        }
    }

    private static int read(char[] column, Sparse<Integer> spill, int i) {
        return column[i] < SPILLED ? column[i] : spill.get(i);
    }

    private void pack(Objective objective, int k) {
        int from = OBJECTIVE_WIDTH * k;
        objectives[from] = objective.pdbViolations();
        objectives[from + 1] = objective.highestPriority();
        objectives[from + 2] = objective.workLost();
        objectives[from + 3] = objective.victims();
        objectives[from + 4] = objective.prioritySum();
        for (int t = 0; t < TieBreak.COUNT; t++) {
            objectives[from + 5 + t] = objective.tieBreak(TieBreak.ALL.get(t));
        }
    }

    /** Values that most nodes lack (a detail, a gap), kept only where present. */
    private static final class Sparse<T> {
        private int[] at = new int[0];
        private Object[] values = new Object[0];
        private int size;

        void put(int index, T value) {
            if (value == null) {
                return;
            }
            if (size == at.length) {
                at = Arrays.copyOf(at, Math.max(4, 2 * size));
                values = Arrays.copyOf(values, at.length);
            }
            at[size] = index;
            values[size++] = value;
        }

        @SuppressWarnings("unchecked")
        T get(int index) {
            int k = Arrays.binarySearch(at, 0, size, index);
            return k < 0 ? null : (T) values[k];
        }
    }
}
