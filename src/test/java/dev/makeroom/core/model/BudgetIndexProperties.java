package dev.makeroom.core.model;

import dev.makeroom.support.property.Gens;
import dev.makeroom.support.property.Gen;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Provide;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The budgets a snapshot says cover a pod are exactly those, in the snapshot's order, that a test of
 * every budget finds: budgets with matchLabels on one or two keys, with expressions only, empty, in
 * several namespaces, with pods already disrupted; and after a change that keeps the budgets, and one
 * that replaces them.
 */
class BudgetIndexProperties {

    private static final List<String> NAMESPACES = List.of("a", "b");
    private static final List<String> KEYS = List.of("app", "tier", "team");
    private static final List<String> VALUES = List.of("web", "db", "x");

    @Property(tries = 300)
    void the_index_answers_as_a_scan(@ForAll("budgets") List<DisruptionBudget> budgets,
                                     @ForAll("budgets") List<DisruptionBudget> replaced,
                                     @ForAll("pods") List<PodInfo> pods) {
        ClusterSnapshot.Builder builder = ClusterSnapshot.builder().node("n", Map.of(), Resources.NONE);
        budgets.forEach(builder::budget);
        pods.forEach(builder::pod);
        ClusterSnapshot snapshot = builder.build();
        ClusterSnapshot changed = snapshot.change().removePod(pods.get(0).uid()).build();
        ClusterSnapshot rebudgeted = snapshot.change().budgets(replaced).build();
        for (PodInfo pod : pods) {
            assertThat(snapshot.budgetsCovering(pod)).isEqualTo(scan(budgets, pod));
            assertThat(changed.budgetsCovering(pod)).isEqualTo(scan(budgets, pod));
            assertThat(rebudgeted.budgetsCovering(pod)).isEqualTo(scan(replaced, pod));
        }
    }

    private static List<DisruptionBudget> scan(List<DisruptionBudget> budgets, PodInfo pod) {
        return budgets.stream().filter(b -> b.covers(pod)).toList();
    }

    @Provide
    Gen<List<DisruptionBudget>> budgets() {
        Gen<Map<String, String>> matchLabels = Gens.maps(Gens.of(KEYS), Gens.of(VALUES))
                .ofMaxSize(2);
        Gen<List<LabelSelector.Requirement>> requirements = Gens.of(
                List.of(),
                List.of(new LabelSelector.Requirement("tier", LabelSelector.Operator.IN, List.of("web", "db"))),
                List.of(new LabelSelector.Requirement("app", LabelSelector.Operator.EXISTS, List.of())),
                List.of(new LabelSelector.Requirement("team", LabelSelector.Operator.NOT_IN, List.of("x"))));
        Gen<DisruptionBudget> budget = Gens.combine(Gens.of(NAMESPACES),
                        Gens.strings().withCharRange('a', 'z').ofLength(3), matchLabels, requirements,
                        Gens.integers().between(0, 2), Gens.of(Set.<String>of(), Set.of("p1"), Set.of("p2", "p3")))
                .as((ns, name, labels, reqs, allowed, disrupted) -> new DisruptionBudget(ns, name,
                        new LabelSelector(labels, reqs), allowed, disrupted));
        return budget.list().ofMaxSize(12);
    }

    @Provide
    Gen<List<PodInfo>> pods() {
        Gen<Map<String, String>> labels = Gens.maps(Gens.of(KEYS), Gens.of(VALUES)).ofMaxSize(3);
        return Gens.combine(Gens.of(NAMESPACES), labels).as((ns, l) -> new Object[] {ns, l}).list().ofMinSize(1).ofMaxSize(12)
                .map(specs -> {
                    List<PodInfo> pods = new java.util.ArrayList<>();
                    for (int i = 0; i < specs.size(); i++) {
                        @SuppressWarnings("unchecked")
                        Map<String, String> l = (Map<String, String>) specs.get(i)[1];
                        pods.add(PodInfo.builder("u" + i).name("p" + i).namespace((String) specs.get(i)[0])
                                .nodeName("n").labels(l).build());
                    }
                    return pods;
                });
    }
}
