package dev.makeroom.core.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The budgets of a snapshot arranged to answer "which budgets cover this pod" without testing each
 * budget of the pod's namespace: a preemption asks it for the victims of every candidate node, and a
 * namespace may hold hundreds of budgets.
 *
 * <p>A budget whose selector has matchLabels can cover only pods carrying its first matchLabels
 * entry, so it is filed under that key and value; a pod looks up, per key filed in its namespace
 * (usually one or two, such as {@code app}), its own value of that key. Budgets with only
 * matchExpressions are tested for every pod of the namespace, as before. Each budget found is still
 * checked with {@link DisruptionBudget#covers}, and the answer keeps the order of the snapshot's list.
 */
final class BudgetIndex {

    static final BudgetIndex EMPTY = new BudgetIndex(List.of());

    private final Map<String, Namespace> byNamespace = new HashMap<>();

    BudgetIndex(List<DisruptionBudget> budgets) {
        for (int i = 0; i < budgets.size(); i++) {
            DisruptionBudget budget = budgets.get(i);
            byNamespace.computeIfAbsent(budget.namespace(), k -> new Namespace()).file(budget, i);
        }
    }

    /** The budgets covering {@code pod}, in the order of the list the index was built from. */
    List<DisruptionBudget> covering(PodInfo pod) {
        Namespace namespace = byNamespace.get(pod.namespace());
        return namespace == null ? List.of() : namespace.covering(pod);
    }

    /** A budget and its place in the snapshot's list (to answer in that order). */
    private record Filed(DisruptionBudget budget, int position) {
    }

    private static final class Namespace {
        private final Map<String, Map<String, List<Filed>>> byLabel = new HashMap<>(); // key → value → budgets
        private final List<Filed> unlabelled = new ArrayList<>(0);
        private String[] keys = new String[0]; // byLabel's keys, walked without an iterator

        void file(DisruptionBudget budget, int position) {
            Filed filed = new Filed(budget, position);
            Map<String, String> labels = budget.selector().matchLabels();
            if (labels.isEmpty()) {
                unlabelled.add(filed);
                return;
            }
            String key = labels.keySet().iterator().next();
            byLabel.computeIfAbsent(key, k -> new HashMap<>()).computeIfAbsent(labels.get(key), v -> new ArrayList<>(1))
                    .add(filed);
            keys = byLabel.keySet().toArray(new String[0]);
        }

        List<DisruptionBudget> covering(PodInfo pod) {
            Filed first = null; // most pods are covered by one budget or none: a list only past one
            List<Filed> more = null;
            for (int k = -1; k < keys.length; k++) { // the unlabelled budgets, then those filed under each key
                List<Filed> filed = k < 0 ? unlabelled : filedUnder(keys[k], pod);
                for (int i = 0; filed != null && i < filed.size(); i++) {
                    Filed budget = filed.get(i);
                    if (!budget.budget().covers(pod)) {
                        continue;
                    }
                    if (first == null) {
                        first = budget;
                    } else {
                        more = added(more, budget);
                    }
                }
            }
            if (first == null) {
                return List.of();
            }
            if (more == null) { // a singleton list: callers' forEach makes no iterator over it
                return Collections.singletonList(first.budget());
            }
            more.add(first);
            more.sort((a, b) -> Integer.compare(a.position(), b.position()));
            List<DisruptionBudget> covering = new ArrayList<>(more.size());
            more.forEach(f -> covering.add(f.budget()));
            return covering;
        }

        /** The budgets filed under {@code key} and the pod's value of it, or null. */
        private List<Filed> filedUnder(String key, PodInfo pod) {
            String value = pod.labels().get(key);
            return value == null ? null : byLabel.get(key).get(value);
        }

        private static List<Filed> added(List<Filed> list, Filed filed) {
            List<Filed> to = list == null ? new ArrayList<>(2) : list;
            to.add(filed);
            return to;
        }
    }
}
