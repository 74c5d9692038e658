package dev.makeroom.bench;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Series read from one scrape of makeroom's Prometheus endpoint, by name and label values. */
record Scraped(String text) {

    /** The value of series {@code name} whose labels contain {@code labels} (e.g. {@code result="preempt"}); 0 when absent. */
    double value(String name, String labels) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*})? ([0-9.eE+-]+)$").matcher(text);
        double sum = 0;
        while (m.find()) {
            if (labels.isEmpty() || (m.group(1) != null && m.group(1).contains(labels))) {
                sum += Double.parseDouble(m.group(2));
            }
        }
        return sum;
    }

    /** Per value of label {@code label}, series {@code name}'s value (e.g. decisions by result). */
    Map<String, Double> byLabel(String name, String label) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{[^}]*" + label + "=\"([^\"]+)\"[^}]*} ([0-9.eE+-]+)$")
                .matcher(text);
        Map<String, Double> values = new TreeMap<>();
        while (m.find()) {
            values.merge(m.group(1), Double.parseDouble(m.group(2)), Double::sum);
        }
        return values;
    }

    /** Histogram {@code name}'s cumulative bucket counts by upper bound in seconds, for series with {@code labels}. */
    TreeMap<Double, Long> buckets(String name, String labels) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "_bucket\\{([^}]*)le=\"([^\"]+)\"[^}]*} ([0-9.eE+]+)$")
                .matcher(text);
        TreeMap<Double, Long> counts = new TreeMap<>();
        while (m.find()) {
            if (m.group(1).contains(labels)) {
                double bound = m.group(2).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(m.group(2));
                counts.merge(bound, (long) Double.parseDouble(m.group(3)), Long::sum);
            }
        }
        return counts;
    }
}
