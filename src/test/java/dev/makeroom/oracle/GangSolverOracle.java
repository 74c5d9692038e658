package dev.makeroom.oracle;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.Gang;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.room.Objective;
import dev.makeroom.core.preemption.Scenario;
import dev.makeroom.core.room.TieBreak;
import dev.makeroom.core.room.WorkRank;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * The cheapest victim set on one node under the gang cost (docs/gangs.md), found by CBC from a model
 * written from that document, not from makeroom's search: binaries x (a pod evicted) and, per gang whose
 * members here that may go outnumber its slack, b (the gang broken). Evicting more than the slack
 * forces b; a broken gang has all its members here that may go evicted; a broken gang adds its running
 * members not evicted to the victim count, their priorities to the sum and their work lost (the default
 * price, {@link Scenario#workLostAtNow}, in units of its greatest common divisor over the node so that
 * the solver's numbers stay small) to the work. Highest priority and the tie-breaks are the evicted pods' own. Solved one component at a time, in the objective's order
 * (no budgets here: no PDB violations).
 */
final class GangSolverOracle {

    private final List<PodInfo> eligible = new ArrayList<>(); // the node's pods below the pending pod's priority
    private final Map<String, List<Integer>> atRisk = new LinkedHashMap<>(); // gang key -> eligible indexes
    private final Map<String, Integer> slack = new HashMap<>();
    private final Map<String, long[]> lostWhenBroken = new HashMap<>(); // gang key -> {members, priority sum, work}
    private long workUnit; // the greatest common divisor of every work lost counted here
    private final Map<String, Long> need = new LinkedHashMap<>();
    private final String what;

    GangSolverOracle(ClusterSnapshot snapshot, String node, PodInfo pending, String what) {
        this.what = what;
        Map<String, Long> free = new HashMap<>(snapshot.node(node).allocatable().toMap());
        for (PodInfo pod : snapshot.node(node).pods()) {
            pod.requests().toMap().forEach((resource, amount) -> free.merge(resource, -amount, Long::sum));
            if (pod.priority() < pending.priority()) {
                eligible.add(pod);
            }
        }
        pending.requests().toMap().forEach((resource, amount) -> {
            long short_ = amount - free.getOrDefault(resource, 0L);
            if (short_ > 0 && !resource.equals(dev.makeroom.core.model.Resources.PODS)) {
                need.put(resource, short_);
            }
        });
        for (int i = 0; i < eligible.size(); i++) {
            Gang named = eligible.get(i).gang();
            if (named != null) {
                atRisk.computeIfAbsent(named.key(), k -> new ArrayList<>()).add(i);
            }
        }
        atRisk.entrySet().removeIf(e -> {
            List<PodInfo> running = snapshot.runningMembersOf(e.getKey());
            Gang gang = snapshot.gangAsKnown(eligible.get(e.getValue().get(0)).gang(), running);
            int s = gang.slack(running.size());
            if (e.getValue().size() <= s) {
                return true; // all of them here may go and it keeps its minimum
            }
            slack.put(e.getKey(), s);
            Set<String> here = new java.util.HashSet<>();
            e.getValue().forEach(i -> here.add(eligible.get(i).uid()));
            long members = 0;
            long priorities = 0;
            long work = 0;
            for (PodInfo member : running) {
                if (!here.contains(member.uid())) {
                    members++;
                    priorities += member.priority();
                    work += Scenario.workLostAtNow(member);
                }
            }
            lostWhenBroken.put(e.getKey(), new long[]{members, priorities, work});
            return false;
        });
        workUnit = 0;
        for (PodInfo pod : eligible) {
            workUnit = gcd(workUnit, Scenario.workLostAtNow(pod));
        }
        lostWhenBroken.values().forEach(lost -> workUnit = gcd(workUnit, lost[2]));
        workUnit = Math.max(1, workUnit);
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** Whether the pending pod fits nowhere on the node as it stands (else there is nothing to decide). */
    boolean needsRoom() {
        return !need.isEmpty();
    }

    /** The optimum's cost, or null when no set lets the pending pod fit. */
    Objective optimum(int secondsPerStage) {
        List<String> stages = new ArrayList<>(List.of("highest", "count", "sum", "work"));
        TieBreak.ALL.forEach(t -> stages.add(t.name()));
        List<String> fixed = new ArrayList<>();
        Set<Integer> chosen = null;
        for (String stage : stages) {
            chosen = solve(expression(stage), fixed, secondsPerStage, stage);
            if (chosen == null) {
                return null;
            }
            fixed.add(expression(stage) + " = " + value(stage, chosen));
        }
        return cost(chosen);
    }

    /** The gang cost of the set of eligible pods {@code chosen} (by index), as the model counts it. */
    private Objective cost(Set<Integer> chosen) {
        long[] ties = new long[TieBreak.COUNT];
        for (TieBreak t : TieBreak.ALL) {
            ties[t.ordinal()] = value(t.name(), chosen);
        }
        return new Objective(0, value("highest", chosen), value("work", chosen) * workUnit, value("count", chosen),
                value("sum", chosen), ties, WorkRank.FIRST_TIE_BREAK);
    }

    private long value(String stage, Set<Integer> chosen) {
        if (stage.equals("highest")) {
            return chosen.stream().mapToLong(i -> eligible.get(i).priority()).max().orElse(Long.MIN_VALUE);
        }
        long total = 0;
        for (int i : chosen) {
            total += weight(stage).applyAsLong(eligible.get(i));
        }
        for (String key : atRisk.keySet()) {
            if (broken(key, chosen)) {
                total += lostWhenBroken(key, stage);
            }
        }
        return total;
    }

    /** What a broken gang's members not evicted add to {@code stage}. */
    private long lostWhenBroken(String key, String stage) {
        long[] lost = lostWhenBroken.get(key);
        return switch (stage) {
            case "count" -> lost[0];
            case "sum" -> lost[1];
            case "work" -> lost[2] / workUnit;
            default -> 0;
        };
    }

    private boolean broken(String key, Set<Integer> chosen) {
        return atRisk.get(key).stream().filter(chosen::contains).count() > slack.get(key);
    }

    private ToLongFunction<PodInfo> weight(String stage) {
        return switch (stage) {
            case "count" -> p -> 1;
            case "sum" -> PodInfo::priority;
            case "work" -> p -> Scenario.workLostAtNow(p) / workUnit;
            default -> TieBreak.valueOf(stage)::cost;
        };
    }

    private String expression(String stage) {
        if (stage.equals("highest")) {
            return "h";
        }
        StringBuilder text = new StringBuilder();
        ToLongFunction<PodInfo> weight = weight(stage);
        for (int i = 0; i < eligible.size(); i++) {
            text.append(term(weight.applyAsLong(eligible.get(i)), "x" + i)).append(i % 8 == 7 ? "\n" : "");
        }
        int g = 0;
        for (String key : atRisk.keySet()) {
            long lost = lostWhenBroken(key, stage);
            text.append(term(lost, "b" + g++));
        }
        return text.toString();
    }

    private static String term(long coefficient, String variable) {
        return (coefficient < 0 ? " - " : " + ") + Math.abs(coefficient) + " " + variable;
    }

    private Set<Integer> solve(String objective, List<String> fixed, int seconds, String stage) {
        StringBuilder lp = new StringBuilder("Minimize\n obj: ").append(objective).append("\nSubject To\n");
        int row = 0;
        for (Map.Entry<String, Long> short_ : need.entrySet()) {
            StringBuilder cover = new StringBuilder();
            for (int i = 0; i < eligible.size(); i++) {
                cover.append(term(eligible.get(i).requests().get(short_.getKey()), "x" + i)).append(i % 8 == 7 ? "\n" : "");
            }
            lp.append(" c").append(row++).append(':').append(cover).append(" >= ").append(short_.getValue()).append('\n');
        }
        for (int i = 0; i < eligible.size(); i++) {
            lp.append(" c").append(row++).append(": h").append(term(-eligible.get(i).priority(), "x" + i)).append(" >= 0\n");
        }
        int g = 0;
        for (String key : atRisk.keySet()) {
            List<Integer> members = atRisk.get(key);
            StringBuilder out = new StringBuilder();
            for (int i : members) {
                out.append(" + x").append(i);
                lp.append(" c").append(row++).append(": x").append(i).append(" - b").append(g).append(" >= 0\n");
            }
            lp.append(" c").append(row++).append(':').append(out).append(" - ").append(members.size()).append(" b").append(g)
                    .append(" <= ").append(slack.get(key)).append('\n');
            g++;
        }
        for (String earlier : fixed) {
            lp.append(" c").append(row++).append(": ").append(earlier).append('\n');
        }
        lp.append("Bounds\n -1000000 <= h <= 1000000\nBinaries\n");
        for (int i = 0; i < eligible.size(); i++) {
            lp.append(" x").append(i).append('\n');
        }
        for (int b = 0; b < atRisk.size(); b++) {
            lp.append(" b").append(b).append('\n');
        }
        lp.append("Generals\n h\nEnd\n");
        try {
            return Cbc.solve(lp.toString(), seconds, what + " stage " + stage, name -> Integer.parseInt(name.substring(1)),
                    name -> name.startsWith("x"));
        } catch (SolverOracle.Unproven e) {
            if (e.getMessage().contains("nfeasible")) {
                return null;
            }
            throw e;
        }
    }

    /** The eligible pods' uids of a set, for comparing with makeroom's victims. */
    Set<Integer> indexesOf(List<PodInfo> victims) {
        Set<Integer> out = new java.util.HashSet<>();
        for (PodInfo v : victims) {
            out.add(eligible.indexOf(v));
        }
        return out;
    }

    /** Whether {@code victims} keep the model's rule and let the pending pod fit; then their cost. */
    Objective costOf(List<PodInfo> victims) {
        Set<Integer> chosen = indexesOf(victims);
        if (chosen.contains(-1)) {
            return null; // a pod that may not be evicted
        }
        for (Map.Entry<String, Long> short_ : need.entrySet()) {
            long freed = chosen.stream().mapToLong(i -> eligible.get(i).requests().get(short_.getKey())).sum();
            if (freed < short_.getValue()) {
                return null;
            }
        }
        for (String key : atRisk.keySet()) {
            if (broken(key, chosen) && !chosen.containsAll(atRisk.get(key))) {
                return null; // a broken gang's members here go with it
            }
        }
        return cost(chosen);
    }
}
