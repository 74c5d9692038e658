package dev.makeroom.mapping;

import dev.makeroom.core.model.Gang;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;

import java.util.Optional;

/**
 * The group objects that state a gang's minimum, one per system that forms gangs and serves one
 * (docs/gangs.md): makeroom watches each where the cluster serves it, and a minimum found there wins
 * over what the members' own marks say ({@link GangMembership}). Each names its gangs as
 * {@link GangMembership} names the members' gangs, so both meet on {@link Gang#key}.
 */
public enum PodGroupKind {

    /** The coscheduling plugin's PodGroup: {@code spec.minMember}. */
    COSCHEDULING("scheduling.x-k8s.io", "v1alpha1", "coscheduling", "minMember"),
    /** Volcano's PodGroup: {@code spec.minMember}. */
    VOLCANO("scheduling.volcano.sh", "v1beta1", "volcano", "minMember"),
    /**
     * The Workload API's PodGroup (Kubernetes 1.36): {@code spec.schedulingPolicy.gang.minCount}; a group
     * with the basic policy is no gang, so its minimum is one (only losing every member stops it).
     */
    WORKLOAD("scheduling.k8s.io", "v1alpha2", "workload", "schedulingPolicy", "gang", "minCount");

    private final String group;
    private final String version;
    private final String system;
    private final Object[] minimumPath;

    PodGroupKind(String group, String version, String system, String... minimumPath) {
        this.group = group;
        this.version = version;
        this.system = system;
        this.minimumPath = new Object[minimumPath.length + 1];
        this.minimumPath[0] = "spec";
        System.arraycopy(minimumPath, 0, this.minimumPath, 1, minimumPath.length);
    }

    /** The {@link Gang#system} of the gangs this kind's objects stand for. */
    public String system() {
        return system;
    }

    public String group() {
        return group;
    }

    public String version() {
        return version;
    }

    /** Every one of these is called {@code podgroups}. */
    public String plural() {
        return "podgroups";
    }

    /** The kind {@code podGroup} is, by its apiVersion and kind; empty when it is none of these. */
    public static Optional<PodGroupKind> of(GenericKubernetesResource podGroup) {
        for (PodGroupKind kind : values()) {
            if ("PodGroup".equals(podGroup.getKind())
                    && (kind.group + "/" + kind.version).equals(podGroup.getApiVersion())) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }

    /** The {@link Gang#key} of the gang {@code podGroup} stands for. */
    public String gangKey(GenericKubernetesResource podGroup) {
        return new Gang(podGroup.getMetadata().getNamespace(), system, podGroup.getMetadata().getName(),
                Gang.EVERY_MEMBER).key();
    }

    /** The minimum {@code podGroup} states; empty when it states none makeroom can use. */
    public Optional<Integer> minimum(GenericKubernetesResource podGroup) {
        Object stated = GenericKubernetesResource.get(podGroup.getAdditionalProperties(), minimumPath);
        if (stated instanceof Number n && n.longValue() > 0) {
            return Optional.of((int) Math.min(Integer.MAX_VALUE, n.longValue()));
        }
        if (this == WORKLOAD && stated == null && GenericKubernetesResource.get(podGroup.getAdditionalProperties(),
                "spec", "schedulingPolicy", "basic") != null) {
            return Optional.of(1);
        }
        return Optional.empty();
    }
}
