package dev.makeroom.mapping;

import dev.makeroom.core.devices.DeviceState;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.PriorityClassInfo;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.model.Taint;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/** Turns a collection of Kubernetes objects into one core snapshot. Objects of other kinds are ignored. */
public final class SnapshotMapper {

    private static final Logger log = LoggerFactory.getLogger(SnapshotMapper.class);

    private SnapshotMapper() {
    }

    /** As {@link #toSnapshot(List, Consumer)}, logging each object left out. */
    public static ClusterSnapshot toSnapshot(List<HasMetadata> objects) {
        return toSnapshot(objects, skipped -> log.warn("left out of the snapshot: {}", skipped));
    }

    /**
     * The snapshot of {@code objects}. An object makeroom cannot read (a null list element, a
     * missing name, an unreadable quantity) is left out and told to {@code skipped}, by kind and
     * name with what is wrong; the rest still loads.
     */
    public static ClusterSnapshot toSnapshot(List<HasMetadata> objects, Consumer<String> skipped) {
        ClusterSnapshot.Builder builder = ClusterSnapshot.builder();
        Map<String, Integer> classValues = new HashMap<>();
        for (HasMetadata o : objects) {
            if (o instanceof PriorityClass pc) {
                readOrSkip(o, skipped, () -> {
                    PriorityClassInfo info = priorityClass(pc);
                    classValues.put(info.name(), info.value());
                    builder.priorityClass(info);
                });
            }
        }
        for (HasMetadata o : objects) {
            readOrSkip(o, skipped, () -> {
                if (o instanceof Node node) {
                    builder.node(name(node), orEmpty(node.getMetadata().getLabels()), allocatable(node), admission(node));
                } else if (o instanceof Pod pod && !PodMapper.isTerminal(pod)) {
                    name(pod);
                    builder.pod(PodMapper.toCore(pod, classValues::get));
                } else if (o instanceof PodDisruptionBudget pdb) {
                    name(pdb);
                    builder.budget(budget(pdb));
                } else if (o instanceof Namespace ns) {
                    builder.namespace(name(ns), orEmpty(ns.getMetadata().getAnnotations()));
                } else if (o instanceof GenericKubernetesResource group) {
                    name(group);
                    PodGroupKind.of(group).ifPresent(kind -> {
                        builder.gangSystemWithGroups(kind.system()); // a dump holds all of a kind it holds any of
                        kind.minimum(group).ifPresent(minimum -> builder.gangMinimum(kind.gangKey(group), minimum));
                    });
                }
            });
        }
        builder.devices(devices(objects, skipped));
        return builder.build();
    }

    /** DRA's objects among {@code objects}; none at all: not modelled (a dump made without them says nothing of devices). */
    private static DeviceState devices(List<HasMetadata> objects, Consumer<String> skipped) {
        List<ResourceSlice> slices = new ArrayList<>();
        List<DeviceClass> classes = new ArrayList<>();
        List<ResourceClaim> claims = new ArrayList<>();
        for (HasMetadata o : objects) {
            readOrSkip(o, skipped, () -> {
                if (o instanceof ResourceSlice slice) {
                    name(slice);
                    slices.add(slice);
                } else if (o instanceof DeviceClass deviceClass) {
                    name(deviceClass);
                    classes.add(deviceClass);
                } else if (o instanceof ResourceClaim claim) {
                    name(claim);
                    claims.add(claim);
                }
            });
        }
        boolean none = slices.isEmpty() && classes.isEmpty() && claims.isEmpty();
        return DeviceMapper.toCore(slices, classes, claims,
                none ? "no ResourceSlices, DeviceClasses or ResourceClaims are known" : null);
    }

    private static void readOrSkip(HasMetadata o, Consumer<String> skipped, Runnable read) {
        try {
            read.run();
        } catch (RuntimeException e) {
            String where = NullListElements.in(o);
            skipped.accept(o.getKind() + " " + ObjectNames.of(o) + ": " + (where != null ? where + " is null"
                    : e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName()));
        }
    }

    private static String name(HasMetadata o) {
        if (o.getMetadata() == null || o.getMetadata().getName() == null || o.getMetadata().getName().isBlank()) {
            throw new IllegalArgumentException("metadata.name is missing");
        }
        return o.getMetadata().getName();
    }

    /** Whether the node is cordoned, its taints, its avoid list and the room makeroom holds there. */
    public static NodeAdmission admission(Node node) {
        var spec = node.getSpec();
        List<Taint> taints = new ArrayList<>();
        var listed = spec == null || spec.getTaints() == null ? List.<io.fabric8.kubernetes.api.model.Taint>of() : spec.getTaints();
        for (var t : listed) {
            if (t != null && t.getKey() != null) {
                taints.add(new Taint(t.getKey(), t.getValue(), t.getEffect()));
            }
        }
        boolean cordoned = spec != null && Boolean.TRUE.equals(spec.getUnschedulable());
        Map<String, String> annotations = node.getMetadata() == null ? null : node.getMetadata().getAnnotations();
        var avoided = AvoidPodsAnnotation.avoidances(annotations);
        var reservations = ReservationAnnotation.read(annotations);
        return !cordoned && taints.isEmpty() && avoided.isEmpty() && reservations.isEmpty() ? NodeAdmission.OPEN
                : new NodeAdmission(cordoned, taints, avoided, reservations);
    }

    public static Resources allocatable(Node node) {
        var status = node.getStatus();
        if (status == null) {
            return Resources.NONE;
        }
        var amounts = status.getAllocatable() != null && !status.getAllocatable().isEmpty()
                ? status.getAllocatable() : status.getCapacity();
        return Resources.of(Quantities.toLongs(amounts));
    }

    public static PriorityClassInfo priorityClass(PriorityClass pc) {
        return new PriorityClassInfo(pc.getMetadata().getName(), pc.getValue() == null ? 0 : pc.getValue(),
                Annotations.optedOut(pc.getMetadata().getAnnotations()));
    }

    public static DisruptionBudget budget(PodDisruptionBudget pdb) {
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
