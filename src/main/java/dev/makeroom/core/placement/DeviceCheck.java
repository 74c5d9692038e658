package dev.makeroom.core.placement;

import dev.makeroom.core.devices.DeviceAllocation;
import dev.makeroom.core.devices.DeviceClaim;
import dev.makeroom.core.devices.DeviceState;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodClaim;
import dev.makeroom.core.model.PodInfo;

import java.util.ArrayList;
import java.util.List;

/**
 * The scheduler's DynamicResources filter for one pod: its pre-filter once (every claim must exist;
 * a missing one keeps the pod off every node), then per node: an allocated claim pins the pod to its
 * node ({@code resourceclaim not available on the node} elsewhere), and the unallocated ones must be
 * allocatable there together ({@code cannot allocate all claims}). Every refusal is
 * UnschedulableAndUnresolvable, as the plugin answers it: removing pods frees no device in the
 * scheduler's preemption. Where the scheduler would return an error (a selector that fails) or the
 * claims use what makeroom does not model, the answer is unknown, saying which.
 */
final class DeviceCheck {

    private final DeviceState devices;
    private final Placement everywhere; // the pre-filter's answer for every node; null when it passed
    private final List<DeviceClaim> allocated = new ArrayList<>();
    private final List<DeviceClaim> unallocated = new ArrayList<>();

    private DeviceCheck(PodInfo pod, ClusterSnapshot snapshot) {
        this.devices = snapshot.devices();
        this.everywhere = preFilter(pod);
    }

    /** The check for {@code pod}, or null when it has no claims. */
    static DeviceCheck of(PodInfo pod, ClusterSnapshot snapshot) {
        return pod.claims().isEmpty() ? null : new DeviceCheck(pod, snapshot);
    }

    private Placement preFilter(PodInfo pod) {
        if (devices.notModelled() != null) {
            return Placement.unknown(Filter.DYNAMIC_RESOURCES, "resource claims (" + devices.notModelled() + ")");
        }
        for (PodClaim claim : pod.claims()) {
            if (claim.claimName() == null) {
                return Placement.unresolvable(Filter.DYNAMIC_RESOURCES, "pod \"" + pod.namespace() + "/" + pod.name()
                        + "\": ResourceClaim not created yet");
            }
            DeviceClaim found = devices.claim(pod.namespace(), claim.claimName());
            if (found == null) {
                return Placement.unresolvable(Filter.DYNAMIC_RESOURCES, "resourceclaim \"" + claim.claimName() + "\" not found");
            }
            (found.allocated() ? allocated : unallocated).add(found);
        }
        return null;
    }

    /** The filter's answer on {@code node}: null when the claims can be had there. */
    Placement on(NodeInfo node) {
        if (everywhere != null) {
            return everywhere;
        }
        for (DeviceClaim claim : allocated) {
            String pinned = claim.allocation().nodeName();
            if (pinned != null && !pinned.equals(node.name())) {
                return Placement.unresolvable(Filter.DYNAMIC_RESOURCES, "resourceclaim not available on the node");
            }
        }
        if (unallocated.isEmpty()) {
            return null;
        }
        DeviceAllocation answer = devices.allocate(node.name(), node.labels(), unallocated);
        if (answer instanceof DeviceAllocation.Unschedulable refused) {
            return Placement.unresolvable(Filter.DYNAMIC_RESOURCES, refused.reason());
        }
        if (answer instanceof DeviceAllocation.Failed failed) {
            return Placement.unknown(Filter.DYNAMIC_RESOURCES, "the scheduler answers an error, not a verdict: "
                    + failed.error());
        }
        if (answer instanceof DeviceAllocation.Unmodelled unmodelled) {
            return Placement.unknown(Filter.DYNAMIC_RESOURCES, unmodelled.what());
        }
        return null;
    }
}
