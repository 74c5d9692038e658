package dev.makeroom.support.property;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.DoublePredicate;
import java.util.function.IntPredicate;

/**
 * What a property's cases were like: each try collects values under a label; the run prints the
 * shares and fails when a coverage check says the generator missed what the property needs to see
 * (a property that passes because no case reached the hard part proves nothing). Outside a property
 * run, collecting does nothing.
 */
public final class Tally {

    private static final ThreadLocal<Tally> CURRENT = new ThreadLocal<>();

    private final Map<String, Map<List<Object>, Integer>> counts = new LinkedHashMap<>();
    private final Map<String, Consumer<Coverage>> checks = new LinkedHashMap<>();

    /** Values collected under a label. */
    public static Labelled label(String label) {
        return new Labelled(label);
    }

    public static void collect(Object... values) {
        label("").collect(values);
    }

    public static void coverage(Consumer<Coverage> check) {
        label("").coverage(check);
    }

    /** The values of one label. */
    public record Labelled(String label) {
        public void collect(Object... values) {
            Tally tally = CURRENT.get();
            if (tally != null) {
                tally.counts.computeIfAbsent(label, l -> new LinkedHashMap<>()).merge(Arrays.asList(values), 1, Integer::sum);
            }
        }

        /** A check run once the tries are done, over everything collected under this label. */
        public void coverage(Consumer<Coverage> check) {
            Tally tally = CURRENT.get();
            if (tally != null) {
                tally.checks.putIfAbsent(label, check);
            }
        }
    }

    /** The coverage of one label: ask how often a value came. */
    public static final class Coverage {
        private final String label;
        private final Map<List<Object>, Integer> counts;
        private final int total;
        private final List<String> misses = new ArrayList<>();

        private Coverage(String label, Map<List<Object>, Integer> counts) {
            this.label = label;
            this.counts = counts;
            this.total = counts.values().stream().mapToInt(Integer::intValue).sum();
        }

        public Share check(Object... values) {
            return new Share(this, Arrays.asList(values));
        }
    }

    /** How often one value came. */
    public record Share(Coverage coverage, List<Object> values) {
        public void count(IntPredicate expected) {
            int count = coverage.counts.getOrDefault(values, 0);
            if (!expected.test(count)) {
                coverage.misses.add(values + " came " + count + " times under '" + coverage.label + "'");
            }
        }

        public void percentage(DoublePredicate expected) {
            int count = coverage.counts.getOrDefault(values, 0);
            double percent = coverage.total == 0 ? 0 : 100.0 * count / coverage.total;
            if (!expected.test(percent)) {
                coverage.misses.add(String.format("%s came in %.1f%% of %d under '%s'", values, percent, coverage.total,
                        coverage.label));
            }
        }
    }

    static Tally start() {
        Tally tally = new Tally();
        CURRENT.set(tally);
        return tally;
    }

    static void stop() {
        CURRENT.remove();
    }

    /** The shares, one line per label. */
    String summary() {
        StringBuilder text = new StringBuilder();
        counts.forEach((label, values) -> {
            int total = values.values().stream().mapToInt(Integer::intValue).sum();
            text.append("\n  ").append(label.isEmpty() ? "cases" : label).append(':');
            values.forEach((value, count) -> text.append(String.format(" %s %.0f%%,",
                    value.size() == 1 ? value.get(0) : value, 100.0 * count / total)));
            text.setLength(text.length() - 1);
        });
        return text.toString();
    }

    /** What the coverage checks missed; empty when every check holds. */
    List<String> missedCoverage() {
        List<String> misses = new ArrayList<>();
        checks.forEach((label, check) -> {
            Coverage coverage = new Coverage(label, counts.getOrDefault(label, Map.of()));
            check.accept(coverage);
            misses.addAll(coverage.misses);
        });
        return misses;
    }
}
