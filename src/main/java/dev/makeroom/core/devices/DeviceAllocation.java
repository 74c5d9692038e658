package dev.makeroom.core.devices;

import java.util.List;

/**
 * Whether a pod's claims can be allocated on one node, as the scheduler's DRA filter answers it:
 * {@link Allocated} with the devices each claim would get; {@link Unschedulable} (the scheduler's
 * {@code UnschedulableAndUnresolvable}, e.g. {@code cannot allocate all claims}); {@link Failed}, an
 * error the scheduler returns instead of a verdict (a selector that fails to evaluate, All over an
 * incomplete pool), so the pod is retried rather than called unschedulable; {@link Unmodelled}, the
 * claims use something makeroom does not model, named.
 */
public sealed interface DeviceAllocation {

    String UNSCHEDULABLE = "cannot allocate all claims";

    /** The devices per claim, in the order of the claims asked about. */
    record Allocated(List<ClaimDevices> claims) implements DeviceAllocation {
        public Allocated {
            claims = List.copyOf(claims);
        }
    }

    record Unschedulable(String reason) implements DeviceAllocation {
    }

    record Failed(String error) implements DeviceAllocation {
    }

    record Unmodelled(String what) implements DeviceAllocation {
    }

    /** One claim's devices. */
    record ClaimDevices(DeviceClaim claim, List<DeviceClaim.DeviceResult> devices) {
        public ClaimDevices {
            devices = List.copyOf(devices);
        }
    }
}
