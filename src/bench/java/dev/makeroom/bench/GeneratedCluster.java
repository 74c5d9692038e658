package dev.makeroom.bench;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;

import java.util.List;

/**
 * A generated cluster whose nodes and pods are made by index, as the API server returns them: an
 * {@link ApiStub} serves any size page by page without holding it.
 */
interface GeneratedCluster {

    int nodeCount();

    int podCount();

    Node node(int index);

    Pod pod(int index);

    List<PriorityClass> priorityClasses();

    List<PodDisruptionBudget> budgets();

    /** The namespaces the pods live in (makeroom's own is added by the stub). */
    List<Namespace> namespaces();
}
