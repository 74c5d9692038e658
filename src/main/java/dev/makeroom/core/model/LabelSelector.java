package dev.makeroom.core.model;

import java.util.List;
import java.util.Map;

/**
 * A Kubernetes label selector: matchLabels plus set-based requirements, all ANDed. A value like a
 * record, but a class: its matchLabels are also kept as arrays, so that matching, which runs for
 * every budget and term against every pod a decision reads, walks them without an iterator.
 */
public final class LabelSelector {

    public static final LabelSelector EMPTY = new LabelSelector(Map.of(), List.of());

    /**
     * Matches no labels at all: what a missing selector means where Kubernetes reads it as
     * {@code labels.Nothing()} (a topology spread constraint without a {@code labelSelector}).
     */
    public static final LabelSelector NOTHING = new LabelSelector(Map.of(),
            List.of(new Requirement("", Operator.IN, List.of())));

    /**
     * The key under which a node term's {@code matchFields} on {@code metadata.name} is kept: no label
     * key can contain '@', so it never meets a real label; {@link #matches(Map, String)} reads it as the
     * node's name.
     */
    public static final String NODE_NAME_FIELD = "@metadata.name";

    private final Map<String, String> matchLabels;
    private final List<Requirement> requirements;
    private final String[] keys;
    private final String[] values;

    public LabelSelector(Map<String, String> matchLabels, List<Requirement> requirements) {
        this.matchLabels = Map.copyOf(matchLabels);
        this.requirements = List.copyOf(requirements);
        this.keys = this.matchLabels.keySet().toArray(new String[0]);
        this.values = new String[keys.length];
        for (int i = 0; i < keys.length; i++) {
            values[i] = this.matchLabels.get(keys[i]);
        }
    }

    public Map<String, String> matchLabels() {
        return matchLabels;
    }

    public List<Requirement> requirements() {
        return requirements;
    }

    public static LabelSelector matching(Map<String, String> labels) {
        return new LabelSelector(labels, List.of());
    }

    public boolean isEmpty() {
        return matchLabels.isEmpty() && requirements.isEmpty();
    }

    public boolean matches(Map<String, String> labels) {
        return matches(labels, null);
    }

    /** As {@link #matches(Map)}, for a node term: {@link #NODE_NAME_FIELD} reads {@code nodeName}. */
    public boolean matches(Map<String, String> labels, String nodeName) {
        for (int i = 0; i < keys.length; i++) {
            if (!values[i].equals(labels.get(keys[i]))) {
                return false;
            }
        }
        for (int i = 0; i < requirements.size(); i++) {
            Requirement r = requirements.get(i);
            String value = NODE_NAME_FIELD.equals(r.key()) ? nodeName : labels.get(r.key());
            if (!r.matchesValue(value)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LabelSelector other && matchLabels.equals(other.matchLabels)
                && requirements.equals(other.requirements);
    }

    @Override
    public int hashCode() {
        return 31 * matchLabels.hashCode() + requirements.hashCode();
    }

    @Override
    public String toString() {
        return "LabelSelector[matchLabels=" + matchLabels + ", requirements=" + requirements + "]";
    }

    /** One matchExpressions entry. */
    public record Requirement(String key, Operator operator, List<String> values) {
        public Requirement {
            values = List.copyOf(values);
        }

        /** Whether a label (or field) of this value, null when absent, meets the requirement. */
        boolean matchesValue(String value) {
            return switch (operator) {
                case IN -> value != null && values.contains(value);
                case NOT_IN -> value == null || !values.contains(value);
                case EXISTS -> value != null;
                case DOES_NOT_EXIST -> value == null;
                case GT -> compared(value) > 0;
                case LT -> compared(value) < 0;
            };
        }

        /**
         * Gt and Lt of node terms compare the label, read as an integer, with the one value: the sign of
         * label minus value; 0 (no match) when either is not an integer or the label is absent, as the
         * scheduler treats them.
         */
        private int compared(String value) {
            if (value == null || values.size() != 1) {
                return 0;
            }
            try {
                return Long.compare(Long.parseLong(value), Long.parseLong(values.get(0)));
            } catch (NumberFormatException e) {
                return 0;
            }
        }
    }

    /** Set-based operators; GT and LT occur only in node selector terms. */
    public enum Operator {
        IN, NOT_IN, EXISTS, DOES_NOT_EXIST, GT, LT
    }
}
