package dev.makeroom.cluster;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;

import java.util.Map;

/** Pods of namespace ml for the gang tests against the mock API: each its own Job's, bound (Running) or pending. */
final class GangPods {

    private GangPods() {
    }

    /** {@code node} null: pending. */
    static Pod pod(String name, String node, String cpu, int priority, Map<String, String> labels,
                   Map<String, String> annotations) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("ml").withLabels(labels)
                .withAnnotations(annotations)
                .addNewOwnerReference().withApiVersion("batch/v1").withKind("Job").withName(name).withUid("job-" + name)
                .withController(true).endOwnerReference().endMetadata()
                .withNewSpec().withNodeName(node).withPriority(priority).addNewContainer().withName("c").withNewResources()
                .addToRequests("cpu", new Quantity(cpu)).endResources().endContainer().endSpec()
                .withNewStatus().withPhase(node == null ? "Pending" : "Running").endStatus().build();
    }
}
