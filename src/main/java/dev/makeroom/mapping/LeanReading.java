package dev.makeroom.mapping;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.EphemeralContainer;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * How makeroom reads Kubernetes objects it only maps (what the live view watches, the pod of each
 * extender request): as fabric8 does, except that the bulkiest parts of objects makeroom never reads
 * (managed fields, env, probes, mounts, container states, node images) are skipped by the parser
 * instead of being built and dropped: fewer objects for the collector, which with the JIT takes most
 * of a first sync's CPU in a 512 MB heap, and less work for each pod the scheduler sends.
 *
 * <p>Only fields no mapper reads are listed here (see {@code PodMapper}, {@code ConstraintsMapper},
 * {@code SnapshotMapper}); {@code LeanReadingTest} holds that a pod and a node read so map exactly
 * as when read in full.
 */
public final class LeanReading {

    @JsonIgnoreProperties({"managedFields"})
    private interface SkipManagedFields {
    }

    @JsonIgnoreProperties({"env", "envFrom", "volumeMounts", "volumeDevices", "command", "args", "workingDir",
            "livenessProbe", "readinessProbe", "startupProbe", "lifecycle", "securityContext",
            "terminationMessagePath", "terminationMessagePolicy"})
    private interface SkipContainerRuntime {
    }

    @JsonIgnoreProperties({"state", "lastState", "image", "imageID", "containerID", "volumeMounts", "user"})
    private interface SkipContainerState {
    }

    // only a volume's emptyDir, hostPath and the kinds that attach disks are read
    @JsonIgnoreProperties({"projected", "secret", "configMap", "downwardAPI"})
    private interface SkipMountedData {
    }

    @JsonIgnoreProperties({"images", "volumesAttached", "volumesInUse", "nodeInfo", "daemonEndpoints"})
    private interface SkipNodeInventory {
    }

    private LeanReading() {
    }

    /** A serialization for a reader that only maps; it writes nothing it skips. */
    public static KubernetesSerialization serialization() {
        ObjectMapper mapper = new ObjectMapper()
                .addMixIn(ObjectMeta.class, SkipManagedFields.class)
                .addMixIn(Container.class, SkipContainerRuntime.class)
                .addMixIn(EphemeralContainer.class, SkipContainerRuntime.class)
                .addMixIn(ContainerStatus.class, SkipContainerState.class)
                .addMixIn(Volume.class, SkipMountedData.class)
                .addMixIn(NodeStatus.class, SkipNodeInventory.class);
        return new KubernetesSerialization(mapper, true);
    }
}
