package dev.makeroom.bench;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;

import java.util.List;

/**
 * A generated cluster whose nodes and pods are made by index, as the API server returns them: an
 * {@link ApiStub} serves any size page by page without holding it. Pod i runs on node
 * {@code i / podsPerNode}.
 */
abstract class GeneratedCluster {

    final int nodes;
    final int podsPerNode;

    GeneratedCluster(int nodes, int podsPerNode) {
        this.nodes = nodes;
        this.podsPerNode = podsPerNode;
    }

    int nodeCount() {
        return nodes;
    }

    int podCount() {
        return nodes * podsPerNode;
    }

    abstract Node node(int index);

    abstract Pod pod(int index);

    abstract List<PriorityClass> priorityClasses();

    abstract List<PodDisruptionBudget> budgets();

    /** The namespaces the pods live in (makeroom's own is added by the stub). */
    abstract List<Namespace> namespaces();
}
