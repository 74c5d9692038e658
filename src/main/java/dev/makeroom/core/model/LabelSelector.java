package dev.makeroom.core.model;

import java.util.List;
import java.util.Map;

/** A Kubernetes label selector: matchLabels plus set-based requirements, all ANDed. */
public record LabelSelector(Map<String, String> matchLabels, List<Requirement> requirements) {

    public static final LabelSelector EMPTY = new LabelSelector(Map.of(), List.of());

    public LabelSelector {
        matchLabels = Map.copyOf(matchLabels);
        requirements = List.copyOf(requirements);
    }

    public static LabelSelector matching(Map<String, String> labels) {
        return new LabelSelector(labels, List.of());
    }

    public boolean isEmpty() {
        return matchLabels.isEmpty() && requirements.isEmpty();
    }

    public boolean matches(Map<String, String> labels) {
        for (Map.Entry<String, String> e : matchLabels.entrySet()) {
            if (!e.getValue().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        for (Requirement r : requirements) {
            if (!r.matches(labels)) {
                return false;
            }
        }
        return true;
    }

    /** One matchExpressions entry. */
    public record Requirement(String key, Operator operator, List<String> values) {
        public Requirement {
            values = List.copyOf(values);
        }

        boolean matches(Map<String, String> labels) {
            String value = labels.get(key);
            return switch (operator) {
                case IN -> value != null && values.contains(value);
                case NOT_IN -> value == null || !values.contains(value);
                case EXISTS -> value != null;
                case DOES_NOT_EXIST -> value == null;
            };
        }
    }

    public enum Operator {
        IN, NOT_IN, EXISTS, DOES_NOT_EXIST
    }
}
