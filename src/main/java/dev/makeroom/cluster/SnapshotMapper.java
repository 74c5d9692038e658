package dev.makeroom.cluster;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.PriorityClassInfo;
import dev.makeroom.core.model.Resources;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Turns a collection of Kubernetes objects into one core snapshot. Objects of other kinds are ignored. */
public final class SnapshotMapper {

    private SnapshotMapper() {
    }

    public static ClusterSnapshot toSnapshot(List<HasMetadata> objects) {
        ClusterSnapshot.Builder builder = ClusterSnapshot.builder();
        Map<String, Integer> classValues = new HashMap<>();
        for (HasMetadata o : objects) {
            if (o instanceof PriorityClass pc) {
                PriorityClassInfo info = priorityClass(pc);
                classValues.put(info.name(), info.value());
                builder.priorityClass(info);
            }
        }
        for (HasMetadata o : objects) {
            if (o instanceof Node node) {
                builder.node(node.getMetadata().getName(), orEmpty(node.getMetadata().getLabels()), allocatable(node));
            } else if (o instanceof Pod pod && !PodMapper.isTerminal(pod)) {
                builder.pod(PodMapper.toCore(pod, classValues::get));
            } else if (o instanceof PodDisruptionBudget pdb) {
                builder.budget(budget(pdb));
            } else if (o instanceof Namespace ns) {
                builder.namespace(ns.getMetadata().getName(), orEmpty(ns.getMetadata().getAnnotations()));
            }
        }
        return builder.build();
    }

    static Resources allocatable(Node node) {
        var status = node.getStatus();
        if (status == null) {
            return Resources.NONE;
        }
        var amounts = status.getAllocatable() != null && !status.getAllocatable().isEmpty()
                ? status.getAllocatable() : status.getCapacity();
        return Resources.of(Quantities.toLongs(amounts));
    }

    static PriorityClassInfo priorityClass(PriorityClass pc) {
        return new PriorityClassInfo(pc.getMetadata().getName(), pc.getValue() == null ? 0 : pc.getValue(),
                Annotations.optedOut(pc.getMetadata().getAnnotations()));
    }

    static DisruptionBudget budget(PodDisruptionBudget pdb) {
        var status = pdb.getStatus();
        int allowed = status == null || status.getDisruptionsAllowed() == null ? 0 : status.getDisruptionsAllowed();
        Set<String> disrupted = status == null || status.getDisruptedPods() == null ? Set.of()
                : status.getDisruptedPods().keySet();
        return new DisruptionBudget(pdb.getMetadata().getNamespace(), pdb.getMetadata().getName(),
                SelectorMapper.toCore(pdb.getSpec() == null ? null : pdb.getSpec().getSelector()), allowed, disrupted);
    }

    private static Map<String, String> orEmpty(Map<String, String> map) {
        return StringMaps.clean(map);
    }
}
