package dev.makeroom.bench;

import dev.makeroom.core.devices.Device;
import dev.makeroom.core.devices.DeviceAttribute;
import dev.makeroom.core.devices.DeviceCapacity;
import dev.makeroom.core.devices.DeviceClaim;
import dev.makeroom.core.devices.DeviceClass;
import dev.makeroom.core.devices.DeviceConstraint;
import dev.makeroom.core.devices.DevicePool;
import dev.makeroom.core.devices.DeviceQuantity;
import dev.makeroom.core.devices.DeviceRequest;
import dev.makeroom.core.devices.DeviceState;
import dev.makeroom.core.devices.DeviceVersion;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodClaim;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.placement.PlacementSurvey;
import dev.makeroom.core.placement.SnapshotState;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * "Where can this pod's claims go?" over a whole cluster: every filter over every node for a pending
 * pod with one claim ({@link PlacementSurvey}, as {@code --why} and simulate ask it), {@code nodes}
 * nodes of 8 GPUs each (one ResourceSlice a node: a model, an index, a NUMA node, a driver version,
 * memory), about two thirds of the devices held by allocated claims. The claim asks two GPUs of one
 * model and at least 64Gi each (CEL selectors on a string and a quantity) on one NUMA node
 * ({@code matchAttribute}). At set-up it prints how many nodes fit and how many the devices refused,
 * and fails unless both are some: the case it is named for.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DeviceClaimsBenchmark {

    private static final String DRIVER = "gpu.example.com";
    private static final Instant NOW = Instant.parse("2026-12-07T00:00:00Z");

    @Param({"5000"})
    int nodes;

    private ClusterSnapshot snapshot;
    private PodInfo pending;

    @Setup
    public void setUp() {
        Random random = new Random(42);
        ClusterSnapshot.Builder builder = ClusterSnapshot.builder();
        List<DevicePool> pools = new ArrayList<>();
        Map<String, DeviceClaim> claims = new HashMap<>();
        for (int n = 0; n < nodes; n++) {
            String node = "node-" + n;
            builder.node(node, Map.of("kubernetes.io/hostname", node), Resources.of("cpu", 64_000, "memory", 512L << 30,
                    "pods", 110));
            String model = n % 3 == 0 ? "A100" : "H100";
            List<Device> devices = new ArrayList<>();
            List<DeviceClaim.DeviceResult> held = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                devices.add(new Device("gpu-" + i, Map.of(DRIVER + "/model", new DeviceAttribute.StringValue(model),
                        DRIVER + "/index", new DeviceAttribute.IntValue(i), "example.com/numa", new DeviceAttribute.IntValue(i / 4),
                        DRIVER + "/driverVersion", new DeviceAttribute.VersionValue(DeviceVersion.parse("1.2." + (i % 3)))),
                        Map.of(DRIVER + "/memory", DeviceCapacity.of(DeviceQuantity.parse(i % 4 == 3 ? "40Gi" : "80Gi"))),
                        List.of(), List.of(), false, ""));
                if (random.nextInt(3) > 0) {
                    held.add(new DeviceClaim.DeviceResult("gpus", DRIVER, node, "gpu-" + i, false, null, Map.of()));
                }
            }
            pools.add(new DevicePool(DRIVER, node, 1, true, devices, Map.of(), node, false, null));
            if (!held.isEmpty()) {
                DeviceClaim claim = new DeviceClaim("batch", "held-" + n, "held-" + n, List.of(), List.of(),
                        new DeviceClaim.Allocation(held, node), Set.of("pod-" + n));
                claims.put(claim.ref(), claim);
            }
        }
        DeviceRequest.Way two = new DeviceRequest.Way("gpus", DRIVER, List.of(
                "device.attributes[\"gpu.example.com\"].model == \"H100\"",
                "device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"64Gi\")) >= 0"),
                false, 2, false, List.of(), Map.of());
        DeviceClaim asked = new DeviceClaim("team", "trainer-gpus", "trainer-gpus", List.of(DeviceRequest.exactly("gpus", two)),
                List.of(new DeviceConstraint(List.of(), "example.com/numa", false)), null, Set.of());
        claims.put(asked.ref(), asked);
        snapshot = builder.devices(new DeviceState(pools, Map.of(DRIVER, new DeviceClass(DRIVER,
                List.of("device.driver == \"gpu.example.com\""), null)), claims, null)).build();
        pending = PodInfo.builder("trainer").name("trainer").namespace("team").priority(1000)
                .requests(Resources.of("cpu", 4000)).claims(List.of(new PodClaim("gpus", "trainer-gpus"))).build();
        PlacementSurvey survey = where();
        long refused = nodes - survey.fits().size();
        long byDevices = survey.unresolvable().values().stream().filter("cannot allocate all claims"::equals).count();
        System.out.printf("%n%d nodes: the claims fit on %d, cannot be allocated on %d%n", nodes, survey.fits().size(), byDevices);
        if (survey.fits().isEmpty() || byDevices == 0 || byDevices != refused) {
            throw new IllegalStateException("the case needs nodes where the claims fit and nodes where they do not");
        }
    }

    @Benchmark
    public PlacementSurvey where() {
        return PlacementSurvey.of(new SnapshotState(snapshot, NOW), pending, Optional.empty());
    }
}
