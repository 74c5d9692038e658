package dev.makeroom.oracle;

import dev.makeroom.bench.FullSizeNodes;
import dev.makeroom.bench.FullSizeNodes.Pod;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The least disruptive victim set of a {@link FullSizeNodes.Node}, found by an exact integer
 * programming solver written by others (CBC, Debian's {@code coinor-cbc}) that shares no code with
 * makeroom's search: the model is written from the README's order ("How makeroom decides"), read
 * straight from the generated node's data.
 *
 * <p>The order is lexicographic, so it is solved one component at a time: the least PDB violations;
 * with that fixed, the lowest highest priority; then the fewest victims; the least priority sum;
 * then the tie-breaks (work lost, QoS rank, grace periods, then ages, where with the count fixed the
 * least age sum is the greatest sum of start times). Work lost is weighed as makeroom's default price
 * states it (docs/configuration.md: a core of cpu 1, a GPU 50) for pods that all ran past its one-day
 * horizon ({@link FullSizeNodes#PAST_HORIZON}), so it is a day times the weighted requests, and the day
 * is left out. Amounts are divided by their common divisor per resource so that the solver's numbers stay small.
 */
public final class SolverOracle {

    /** The components of a set's cost, in the README's order; compared lexicographically. */
    public static final int VIOLATIONS = 0, HIGHEST = 1, COUNT = 2, PRIORITY_SUM = 3, WORK = 4, QOS = 5, GRACE = 6,
            AGE = 7;

    private final FullSizeNodes.Node node;
    private final List<Integer> eligible = new ArrayList<>();
    private final long[] need;
    private final int podsNeeded;

    public SolverOracle(FullSizeNodes.Node node) {
        this.node = node;
        for (int i = 0; i < node.pods().size(); i++) {
            Pod p = node.pods().get(i);
            if (p.priority() < FullSizeNodes.PENDING_PRIORITY && !p.optedOut()) {
                eligible.add(i);
            }
        }
        need = new long[FullSizeNodes.DIMS.length];
        for (int d = 0; d < need.length; d++) {
            long used = 0;
            for (Pod p : node.pods()) {
                used += p.amounts()[d];
            }
            need[d] = Math.max(0, node.pendingRequests()[d] - (node.allocatable()[d] - used));
        }
        podsNeeded = Math.max(0, node.pods().size() + 1 - node.podLimit());
    }

    /** Whether the pending pod fits once exactly these pods (indices into the node's pods) are gone. */
    public boolean fitsWithout(Set<Integer> victims) {
        if (node.pods().size() - victims.size() + 1 > node.podLimit()) {
            return false;
        }
        for (int d = 0; d < need.length; d++) {
            long freed = 0;
            for (int i : victims) {
                freed += node.pods().get(i).amounts()[d];
            }
            if (freed < need[d]) {
                return false;
            }
        }
        return true;
    }

    public boolean mayEvict(int pod) {
        return eligible.contains(pod);
    }

    /** The cost of evicting exactly these pods, component by component. */
    public long[] cost(Set<Integer> victims) {
        int[] spent = new int[node.allowed().length];
        long[] cost = new long[AGE + 1];
        cost[HIGHEST] = Long.MIN_VALUE;
        for (int i : victims) {
            Pod p = node.pods().get(i);
            if (p.budget() >= 0 && ++spent[p.budget()] > node.allowed()[p.budget()]) {
                cost[VIOLATIONS]++;
            }
            cost[HIGHEST] = Math.max(cost[HIGHEST], p.priority());
            cost[COUNT]++;
            cost[PRIORITY_SUM] += p.priority();
            cost[WORK] += workRate(p);
            cost[QOS] += p.qos().ordinal();
            cost[GRACE] += p.graceSeconds();
            cost[AGE] -= p.startMinute(); // newer is cheaper: an older start costs more
        }
        return cost;
    }

    public static int compare(long[] a, long[] b) {
        return Arrays.compare(a, b);
    }

    /**
     * The optimal cost, or null when no set works; {@link Unproven} when the solver did not prove a
     * stage within {@code secondsPerStage}.
     */
    public long[] optimum(int secondsPerStage) {
        if (!fitsWithout(Set.copyOf(eligible))) {
            return null;
        }
        long[] fixed = new long[AGE + 1];
        Set<Integer> set = Set.of();
        for (int stage = VIOLATIONS; stage <= AGE; stage++) {
            set = solveStage(stage, fixed, secondsPerStage);
            fixed[stage] = cost(set)[stage];
        }
        return cost(set);
    }

    /** Thrown when the solver ran out of its time before proving a stage. */
    public static final class Unproven extends RuntimeException {
        Unproven(String what) {
            super(what);
        }
    }

    /** The best set for one component with the earlier ones fixed at their optimum, solved by CBC. */
    private Set<Integer> solveStage(int stage, long[] fixed, int seconds) {
        StringBuilder lp = new StringBuilder("Minimize\n obj: ").append(expression(stage)).append("\nSubject To\n");
        for (int d = 0; d < need.length; d++) {
            if (need[d] > 0) {
                long g = 0;
                for (int i : eligible) {
                    g = gcd(g, node.pods().get(i).amounts()[d]);
                }
                StringBuilder row = new StringBuilder();
                for (int i : eligible) {
                    row.append(" + ").append(node.pods().get(i).amounts()[d] / g).append(' ').append(x(i)).append(lineBreak(i));
                }
                lp.append(" cover").append(d).append(':').append(row).append(" >= ").append((need[d] + g - 1) / g).append('\n');
            }
        }
        if (podsNeeded > 0) {
            lp.append(" podcount: ").append(sum(i -> 1)).append(" >= ").append(podsNeeded).append('\n');
        }
        for (int b = 0; b < node.allowed().length; b++) {
            StringBuilder members = new StringBuilder();
            for (int i : eligible) {
                if (node.pods().get(i).budget() == b) {
                    members.append(" - ").append(x(i)).append(lineBreak(i));
                }
            }
            // v_b >= taken - allowed, v_b >= 0: at the optimum v_b is exactly the victims beyond the budget
            lp.append(" over").append(b).append(": v").append(b).append(members).append(" >= -")
                    .append(node.allowed()[b]).append('\n');
        }
        for (int i : eligible) {
            lp.append(" top").append(i).append(": h - ").append(node.pods().get(i).priority()).append(' ').append(x(i))
                    .append(" >= 0\n");
        }
        for (int earlier = 0; earlier < stage; earlier++) {
            lp.append(" fix").append(earlier).append(": ").append(expression(earlier)).append(" = ").append(fixed[earlier])
                    .append('\n');
        }
        lp.append("Bounds\n h >= 0\n");
        for (int b = 0; b < node.allowed().length; b++) {
            lp.append(" v").append(b).append(" >= 0\n");
        }
        lp.append("Binaries\n");
        eligible.forEach(i -> lp.append(' ').append(x(i)).append('\n'));
        lp.append("Generals\n h\n");
        for (int b = 0; b < node.allowed().length; b++) {
            lp.append(" v").append(b).append('\n');
        }
        lp.append("End\n");
        return Cbc.solve(lp.toString(), seconds, "stage " + stage + " of " + node.shape() + " seed " + node.seed(),
                name -> Integer.parseInt(name.substring(1)), name -> name.startsWith("x"));
    }

    /** A component as a linear expression over the solver's variables. */
    private String expression(int component) {
        return switch (component) {
            case VIOLATIONS -> node.allowed().length == 0 ? "0 h" : budgetsSum();
            case HIGHEST -> "h";
            case COUNT -> sum(i -> 1);
            case PRIORITY_SUM -> sum(i -> node.pods().get(i).priority());
            case WORK -> sum(i -> (int) workRate(node.pods().get(i)));
            case QOS -> sum(i -> node.pods().get(i).qos().ordinal());
            case GRACE -> sum(i -> node.pods().get(i).graceSeconds());
            default -> sum(i -> -node.pods().get(i).startMinute());
        };
    }

    /** Thousandths of weight units a second: millicores of cpu, and 50,000 for each GPU. */
    private static long workRate(Pod p) {
        return p.amounts()[0] + 50_000 * p.amounts()[2];
    }

    private String budgetsSum() {
        StringBuilder text = new StringBuilder();
        for (int b = 0; b < node.allowed().length; b++) {
            text.append(b == 0 ? "" : " + ").append('v').append(b);
        }
        return text.toString();
    }

    private String sum(java.util.function.IntUnaryOperator weight) {
        StringBuilder text = new StringBuilder();
        for (int i : eligible) {
            int w = weight.applyAsInt(i);
            text.append(w < 0 ? " - " : " + ").append(Math.abs(w)).append(' ').append(x(i)).append(lineBreak(i));
        }
        return text.toString();
    }

    /** CBC reads LP lines of bounded length: long expressions go on over several lines. */
    private static String lineBreak(int pod) {
        return pod % 8 == 7 ? "\n" : "";
    }

    private static String x(int pod) {
        return "x" + pod;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
