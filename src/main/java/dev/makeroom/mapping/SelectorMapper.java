package dev.makeroom.mapping;

import dev.makeroom.core.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** fabric8 label selectors to core ones. */
final class SelectorMapper {

    private SelectorMapper() {
    }

    static LabelSelector toCore(io.fabric8.kubernetes.api.model.LabelSelector selector) {
        if (selector == null) {
            return LabelSelector.EMPTY;
        }
        List<LabelSelector.Requirement> requirements = new ArrayList<>();
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
                requirements.add(new LabelSelector.Requirement(r.getKey(), operator(r.getOperator()),
                        r.getValues() == null ? List.of() : r.getValues().stream().filter(v -> v != null).toList()));
            }
        }
        Map<String, String> labels = StringMaps.clean(selector.getMatchLabels());
        return new LabelSelector(labels, requirements);
    }

    private static LabelSelector.Operator operator(String op) {
        LabelSelector.Operator known = labelOperator(op);
        if (known == null) {
            throw new IllegalArgumentException("unknown label selector operator '" + op + "'");
        }
        return known;
    }

    /** A node selector term's operator: a label selector's, or Gt and Lt; null for none of these. */
    static LabelSelector.Operator nodeOperator(String op) {
        return switch (String.valueOf(op)) {
            case "Gt" -> LabelSelector.Operator.GT;
            case "Lt" -> LabelSelector.Operator.LT;
            default -> labelOperator(op);
        };
    }

    /** A set-based selector operator, or null for one a label selector does not have (Gt, Lt of node terms). */
    static LabelSelector.Operator labelOperator(String op) {
        return switch (String.valueOf(op)) {
            case "In" -> LabelSelector.Operator.IN;
            case "NotIn" -> LabelSelector.Operator.NOT_IN;
            case "Exists" -> LabelSelector.Operator.EXISTS;
            case "DoesNotExist" -> LabelSelector.Operator.DOES_NOT_EXIST;
            default -> null;
        };
    }
}
