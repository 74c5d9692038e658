package dev.makeroom.core.devices;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The allocator's rules one by one, on a node with four GPUs (and what the oracle does not generate). */
class DeviceAllocatorTest {

    private static final String DRIVER = "gpu.example.com";
    private static final Map<String, DeviceClass> CLASSES = Map.of("gpu",
            new DeviceClass("gpu", List.of("device.driver == \"gpu.example.com\""), "example.com/gpu"));
    private final DeviceAllocator allocator = new DeviceAllocator(new DeviceCel());

    private static Device gpu(int i, String model) {
        return new Device("gpu-" + i, Map.of(DRIVER + "/model", new DeviceAttribute.StringValue(model),
                DRIVER + "/index", new DeviceAttribute.IntValue(i)), Map.of(), List.of(), List.of(), false, "");
    }

    private static DevicePool pool(List<Device> devices) {
        return new DevicePool(DRIVER, "node-1", 1, true, devices, Map.of(), "node-1", false, null);
    }

    private static DeviceRequest.Way way(String name, int count, String... selectors) {
        return new DeviceRequest.Way(name, "gpu", List.of(selectors), false, count, false, List.of(), Map.of());
    }

    private static DeviceClaim claim(DeviceRequest... requests) {
        return new DeviceClaim("team", "train", "uid-train", List.of(requests), List.of(), null, Set.of());
    }

    private DeviceAllocation allocate(DevicePool pool, DevicesInUse inUse, DeviceClaim... claims) {
        return allocator.allocate("node-1", Map.of(), List.of(claims), List.of(pool), CLASSES, inUse);
    }

    private static List<String> devices(DeviceAllocation answer) {
        assertThat(answer).isInstanceOf(DeviceAllocation.Allocated.class);
        return ((DeviceAllocation.Allocated) answer).claims().stream().flatMap(c -> c.devices().stream())
                .map(d -> d.request() + "=" + d.device()).toList();
    }

    private static final DevicePool FOUR = pool(List.of(gpu(0, "A100"), gpu(1, "H100"), gpu(2, "H100"), gpu(3, "A100")));

    @Test
    void devices_held_by_allocated_claims_are_not_taken_and_admin_access_ignores_them() {
        DevicesInUse held = new DevicesInUse(Set.of("gpu.example.com/node-1/gpu-1", "gpu.example.com/node-1/gpu-2"), Map.of());
        DeviceClaim twoH100 = claim(DeviceRequest.exactly("gpus", way("gpus", 2, "device.attributes[\"gpu.example.com\"].model == \"H100\"")));
        assertThat(allocate(FOUR, DevicesInUse.NONE, twoH100)).satisfies(a -> assertThat(devices(a)).containsExactly("gpus=gpu-1", "gpus=gpu-2"));
        assertThat(allocate(FOUR, held, twoH100)).isEqualTo(new DeviceAllocation.Unschedulable("cannot allocate all claims"));
        DeviceClaim admin = claim(DeviceRequest.exactly("gpus", new DeviceRequest.Way("gpus", "gpu",
                List.of("device.attributes[\"gpu.example.com\"].model == \"H100\""), false, 2, true, List.of(), Map.of())));
        assertThat(devices(allocate(FOUR, held, admin))).containsExactly("gpus=gpu-1", "gpus=gpu-2");
    }

    @Test
    void first_available_takes_the_first_way_that_works_in_order() {
        DeviceRequest either = new DeviceRequest("gpus", List.of(way("gpus/h100", 3, "device.attributes[\"gpu.example.com\"].model == \"H100\""),
                way("gpus/any", 3)), true);
        assertThat(devices(allocate(FOUR, DevicesInUse.NONE, claim(either))))
                .containsExactly("gpus/any=gpu-0", "gpus/any=gpu-1", "gpus/any=gpu-2");
        DeviceRequest two = new DeviceRequest("gpus", List.of(way("gpus/h100", 2, "device.attributes[\"gpu.example.com\"].model == \"H100\""),
                way("gpus/any", 2)), true);
        assertThat(devices(allocate(FOUR, DevicesInUse.NONE, claim(two)))).containsExactly("gpus/h100=gpu-1", "gpus/h100=gpu-2");
    }

    @Test
    void all_takes_every_matching_device_or_none_and_fails_on_an_incomplete_pool() {
        DeviceRequest all = DeviceRequest.exactly("gpus", new DeviceRequest.Way("gpus", "gpu",
                List.of("device.attributes[\"gpu.example.com\"].model == \"A100\""), true, 0, false, List.of(), Map.of()));
        assertThat(devices(allocate(FOUR, DevicesInUse.NONE, claim(all)))).containsExactly("gpus=gpu-0", "gpus=gpu-3");
        assertThat(allocate(FOUR, new DevicesInUse(Set.of("gpu.example.com/node-1/gpu-3"), Map.of()), claim(all)))
                .isEqualTo(new DeviceAllocation.Unschedulable("cannot allocate all claims"));
        DeviceClaim allOnOneModel = new DeviceClaim("team", "train", "uid-train", List.of(DeviceRequest.exactly("gpus",
                new DeviceRequest.Way("gpus", "gpu", List.of(), true, 0, false, List.of(), Map.of()))),
                List.of(new DeviceConstraint(List.of(), DRIVER + "/model", false)), null, Set.of());
        assertThat(allocate(FOUR, DevicesInUse.NONE, allOnOneModel)).as("seen on 1.36: the scheduler's error, not a verdict")
                .isEqualTo(new DeviceAllocation.Failed("claim team/train, request gpus: cannot add device "
                        + "gpu.example.com/node-1/gpu-1 because a claim constraint would not be satisfied"));
        DevicePool incomplete = new DevicePool(DRIVER, "node-1", 1, false, FOUR.devices(), Map.of(), "node-1", false, null);
        assertThat(allocate(incomplete, DevicesInUse.NONE, claim(all))).isInstanceOf(DeviceAllocation.Failed.class);
        assertThat(allocate(incomplete, DevicesInUse.NONE, claim(DeviceRequest.exactly("one", way("one", 1)))))
                .as("an incomplete pool's devices are never allocated").isEqualTo(new DeviceAllocation.Unschedulable("cannot allocate all claims"));
    }

    @Test
    void a_missing_class_a_failing_selector_and_an_unmodelled_device_are_said_as_such() {
        DeviceClaim unknownClass = claim(DeviceRequest.exactly("x", new DeviceRequest.Way("x", "fpga", List.of(), false, 1, false,
                List.of(), Map.of())));
        assertThat(allocate(FOUR, DevicesInUse.NONE, unknownClass))
                .isEqualTo(new DeviceAllocation.Unschedulable("request x: device class fpga does not exist"));
        assertThat(allocate(FOUR, DevicesInUse.NONE, claim(DeviceRequest.exactly("g", way("g", 1,
                "device.attributes[\"gpu.example.com\"].vendor == \"x\""))))).isInstanceOf(DeviceAllocation.Failed.class);
        DevicePool binding = pool(List.of(new Device("gpu-0", Map.of(), Map.of(), List.of(), List.of(), false, "binding conditions")));
        assertThat(allocate(binding, DevicesInUse.NONE, claim(DeviceRequest.exactly("g", way("g", 1)))))
                .isEqualTo(new DeviceAllocation.Unmodelled("device gpu.example.com/node-1/gpu-0: binding conditions"));
    }

    @Test
    void a_shared_device_serves_claims_while_its_consumable_capacity_lasts_rounded_up_by_its_policy() {
        DeviceQuantity g = DeviceQuantity.parse("1G");
        DeviceCapacity bandwidth = new DeviceCapacity(DeviceQuantity.parse("100G"), DeviceQuantity.parse("10G"), List.of(),
                DeviceQuantity.parse("1G"), null, g);
        Device nic = new Device("nic-0", Map.of(), Map.of(DRIVER + "/bandwidth", bandwidth), List.of(), List.of(), true, "");
        DevicePool pool = pool(List.of(nic));
        DeviceClaim asks = claim(DeviceRequest.exactly("net", new DeviceRequest.Way("net", "gpu", List.of(), false, 1, false,
                List.of(), Map.of(DRIVER + "/bandwidth", DeviceQuantity.parse("24.5G")))));
        DeviceAllocation answer = allocate(pool, new DevicesInUse(Set.of(), Map.of("gpu.example.com/node-1/nic-0",
                Map.of(DRIVER + "/bandwidth", DeviceQuantity.parse("75G")))), asks);
        assertThat(((DeviceAllocation.Allocated) answer).claims().get(0).devices().get(0).consumed())
                .containsEntry(DRIVER + "/bandwidth", DeviceQuantity.parse("25G"));
        assertThat(allocate(pool, new DevicesInUse(Set.of(), Map.of("gpu.example.com/node-1/nic-0",
                Map.of(DRIVER + "/bandwidth", DeviceQuantity.parse("76G")))), asks))
                .isEqualTo(new DeviceAllocation.Unschedulable("cannot allocate all claims"));
        assertThat(bandwidth.consumed(null)).as("nothing asked: the policy's default").isEqualTo(DeviceQuantity.parse("10G"));
        assertThat(DeviceCapacity.of(DeviceQuantity.parse("100G")).consumed(null)).as("no policy: all of it")
                .isEqualTo(new DeviceQuantity(new BigDecimal("100e9")));
    }

    @Test
    void partitions_of_one_gpu_compete_for_its_counters() {
        Device whole = new Device("gpu-0", Map.of(), Map.of(), List.of(new Device.CounterUse("gpu-0-ctr",
                Map.of("slices", DeviceQuantity.parse("7")))), List.of(), false, "");
        Device slice = new Device("gpu-0-1g-0", Map.of(), Map.of(), List.of(new Device.CounterUse("gpu-0-ctr",
                Map.of("slices", DeviceQuantity.parse("1")))), List.of(), false, "");
        DevicePool pool = new DevicePool(DRIVER, "node-1", 1, true, List.of(whole, slice), Map.of("gpu-0-ctr",
                Map.of("slices", DeviceQuantity.parse("7"))), "node-1", false, null);
        DeviceClaim wholeGpu = claim(DeviceRequest.exactly("g", way("g", 1)));
        assertThat(devices(allocate(pool, DevicesInUse.NONE, wholeGpu))).containsExactly("g=gpu-0");
        assertThat(allocate(pool, new DevicesInUse(Set.of("gpu.example.com/node-1/gpu-0-1g-0"), Map.of()), wholeGpu))
                .as("a partition in use leaves 6 of 7 slices: the whole GPU does not fit")
                .isEqualTo(new DeviceAllocation.Unschedulable("cannot allocate all claims"));
        DeviceClaim two = claim(DeviceRequest.exactly("g", way("g", 2)));
        assertThat(allocate(pool, DevicesInUse.NONE, two)).as("the whole GPU and a partition of it: 8 of 7 slices")
                .isEqualTo(new DeviceAllocation.Unschedulable("cannot allocate all claims"));
    }
}
