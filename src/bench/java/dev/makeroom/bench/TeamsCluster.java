package dev.makeroom.bench;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;

import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

/** {@link SyntheticObjects}' cluster by index: 40 teams' workloads, nodes as kubelets report them. */
final class TeamsCluster extends GeneratedCluster {

    TeamsCluster(int nodes, int podsPerNode) {
        super(nodes, podsPerNode);
    }

    @Override
    Node node(int index) {
        return SyntheticObjects.node("node-" + index, 1 + index);
    }

    @Override
    Pod pod(int index) {
        return SyntheticObjects.pod("node-" + (index / podsPerNode), index % podsPerNode, new Random(index),
                10_000_000L + index);
    }

    @Override
    List<PriorityClass> priorityClasses() {
        return List.of(SyntheticObjects.priorityClass("service", 1000), SyntheticObjects.priorityClass("batch", 100));
    }

    @Override
    List<PodDisruptionBudget> budgets() {
        return IntStream.range(0, SyntheticObjects.APPS / 4).mapToObj(i -> SyntheticObjects.budget(i * 4, 1)).toList();
    }

    @Override
    List<Namespace> namespaces() {
        return IntStream.range(0, 40).mapToObj(i -> new NamespaceBuilder().withNewMetadata().withName("team-" + i)
                .withResourceVersion("" + (1 + i)).endMetadata().build()).toList();
    }
}
