/**
 * Devices of Dynamic Resource Allocation ({@code resource.k8s.io/v1}) as the scheduler's DRA plugin
 * sees them: pools of devices with typed attributes, capacities, shared counters and taints
 * ({@link dev.makeroom.core.devices.DevicePool}), device classes and claims with their requests,
 * constraints and allocations, what allocated claims hold ({@link dev.makeroom.core.devices.DevicesInUse}),
 * and the allocator that says whether and with which devices a pod's claims can be allocated on one
 * node ({@link dev.makeroom.core.devices.DeviceAllocator}). Selectors are CEL, evaluated by
 * Google's CEL-Java with the functions Kubernetes adds ({@link dev.makeroom.core.devices.DeviceCel}).
 */
package dev.makeroom.core.devices;
