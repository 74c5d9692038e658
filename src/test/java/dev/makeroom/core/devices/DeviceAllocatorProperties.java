package dev.makeroom.core.devices;

import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The allocator against an oracle of brute force: every assignment of devices to the claims' requests
 * (each way of a request in order, each combination of devices in the pools' order), checked whole
 * against the rules (nobody holds a device twice, selectors of class and request, taints, shared
 * counters, matchAttribute and distinctAttribute, All takes every matching device), the first valid
 * one in that order. The allocator must find a solution exactly when one exists, and the same one the
 * scheduler's first-fit search finds: the first in that order. Layouts are small and random: one or
 * two pools on the node (and one elsewhere), devices with a model, a NUMA node, a taint and counters
 * of their pool, some held by allocated claims; one or two claims of ExactCount, All and
 * firstAvailable requests with selectors and constraints.
 */
class DeviceAllocatorProperties {

    private static final String NODE = "node-1";
    private static final Map<String, DeviceClass> CLASSES = Map.of(
            "gpu", new DeviceClass("gpu", List.of("device.driver == \"gpu.example.com\""), null),
            "any", new DeviceClass("any", List.of(), null));
    private static final DeviceCel CEL = new DeviceCel();

    record Layout(List<DevicePool> pools, DevicesInUse inUse, List<DeviceClaim> claims) {
    }

    @Property(tries = 600)
    void the_allocator_finds_the_first_solution_there_is_and_only_when_there_is_one(@ForAll long seed) throws Exception {
        Layout layout = layout(new Random(seed));
        DeviceAllocation answer = new DeviceAllocator(CEL).allocate(NODE, Map.of(), layout.claims(), layout.pools(),
                CLASSES, layout.inUse());
        List<List<String>> first = new Oracle(layout).first();

        if (first == null) {
            assertThat(answer).as("seed %d: no assignment works", seed)
                    .isEqualTo(new DeviceAllocation.Unschedulable(DeviceAllocation.UNSCHEDULABLE));
        } else {
            assertThat(answer).as("seed %d", seed).isInstanceOf(DeviceAllocation.Allocated.class);
            List<List<String>> found = ((DeviceAllocation.Allocated) answer).claims().stream()
                    .map(c -> c.devices().stream().map(d -> d.request() + "=" + d.pool() + "/" + d.device()).toList()).toList();
            assertThat(found).as("seed %d: the first solution in the scheduler's order", seed).isEqualTo(first);
        }
    }

    private static Layout layout(Random random) {
        List<DevicePool> pools = new ArrayList<>();
        Set<String> held = new java.util.HashSet<>();
        int poolCount = 1 + random.nextInt(2);
        for (int p = 0; p < poolCount; p++) {
            String driver = random.nextInt(4) == 0 ? "nic.example.com" : "gpu.example.com";
            String name = "pool-" + p;
            boolean counters = random.nextBoolean();
            List<Device> devices = new ArrayList<>();
            int n = 2 + random.nextInt(3);
            for (int d = 0; d < n; d++) {
                Map<String, DeviceAttribute> attributes = new HashMap<>();
                attributes.put(driver + "/model", new DeviceAttribute.StringValue(random.nextBoolean() ? "A" : "B"));
                if (random.nextInt(5) > 0) {
                    attributes.put("example.com/numa", new DeviceAttribute.IntValue(random.nextInt(2)));
                }
                List<Device.DeviceTaint> taints = random.nextInt(5) == 0
                        ? List.of(new Device.DeviceTaint("example.com/degraded", "ecc", random.nextBoolean() ? "NoSchedule" : "None"))
                        : List.of();
                List<Device.CounterUse> uses = counters
                        ? List.of(new Device.CounterUse("gpu-ctr", Map.of("slices", q(1 + random.nextInt(3))))) : List.of();
                devices.add(new Device("dev-" + d, attributes, Map.of(), uses, taints, false, ""));
                if (random.nextInt(4) == 0) {
                    held.add(driver + "/" + name + "/dev-" + d);
                }
            }
            Map<String, Map<String, DeviceQuantity>> sets = counters ? Map.of("gpu-ctr", Map.of("slices", q(2 + random.nextInt(4))))
                    : Map.of();
            pools.add(new DevicePool(driver, name, 1, true, devices, sets, NODE, false, null));
        }
        pools.add(new DevicePool("gpu.example.com", "elsewhere", 1, true, List.of(new Device("dev-0", Map.of(), Map.of(),
                List.of(), List.of(), false, "")), Map.of(), "node-2", false, null));
        List<DeviceClaim> claims = new ArrayList<>();
        int requestsLeft = 3;
        int claimCount = 1 + random.nextInt(2);
        for (int c = 0; c < claimCount && requestsLeft > 0; c++) {
            List<DeviceRequest> requests = new ArrayList<>();
            int constraint = random.nextInt(4);
            // All with a constraint that refuses one of its devices is the scheduler's error: an example test's
            boolean allowAll = constraint == 3;
            int r = 1 + random.nextInt(Math.min(2, requestsLeft));
            requestsLeft -= r;
            for (int i = 0; i < r; i++) {
                String name = "r" + i;
                if (random.nextInt(3) == 0) {
                    requests.add(new DeviceRequest(name, List.of(way(random, name + "/first", allowAll),
                            way(random, name + "/second", allowAll)), true));
                } else {
                    requests.add(DeviceRequest.exactly(name, way(random, name, allowAll)));
                }
            }
            List<DeviceConstraint> constraints = switch (constraint) {
                case 0 -> List.of(new DeviceConstraint(List.of(), "example.com/numa", false));
                case 1 -> List.of(new DeviceConstraint(List.of(), "example.com/numa", true));
                case 2 -> List.of(new DeviceConstraint(List.of("r0"), "gpu.example.com/model", false));
                default -> List.of();
            };
            claims.add(new DeviceClaim("team", "claim-" + c, "uid-" + c, requests, constraints, null, Set.of()));
        }
        return new Layout(pools, new DevicesInUse(held, Map.of()), claims);
    }

    private static DeviceRequest.Way way(Random random, String name, boolean allowAll) {
        List<String> selectors = switch (random.nextInt(4)) {
            // guarded: an unguarded selector on a device without the attribute is an error, tested on its own
            case 0 -> List.of("has(device.attributes[\"gpu.example.com\"].model) && device.attributes[\"gpu.example.com\"].model == \"A\"");
            case 1 -> List.of("\"numa\" in device.attributes[\"example.com\"] && device.attributes[\"example.com\"].numa == 0");
            default -> List.of();
        };
        List<DeviceRequest.DeviceToleration> tolerations = random.nextInt(3) == 0
                ? List.of(new DeviceRequest.DeviceToleration("example.com/degraded", "Exists", null, null)) : List.of();
        boolean all = allowAll && random.nextInt(4) == 0;
        return new DeviceRequest.Way(name, random.nextInt(3) == 0 ? "any" : "gpu", selectors, all, 1 + random.nextInt(2),
                false, tolerations, Map.of());
    }

    private static DeviceQuantity q(long n) {
        return new DeviceQuantity(java.math.BigDecimal.valueOf(n));
    }

    /** Every assignment in the scheduler's order, checked whole; the first valid one. */
    private static final class Oracle {
        private final Layout layout;
        private final List<DevicePool> pools = new ArrayList<>();
        private final List<String> keys = new ArrayList<>(); // candidates in the scheduler's order
        private final List<Device> devices = new ArrayList<>();
        private final List<DevicePool> ofPool = new ArrayList<>();
        private final List<Pick> picks = new ArrayList<>();

        record Pick(int claim, DeviceRequest.Way way, int candidate) {
        }

        Oracle(Layout layout) {
            this.layout = layout;
            layout.pools().stream().filter(p -> p.appliesTo(NODE, Map.of()))
                    .sorted(java.util.Comparator.comparing(DevicePool::driver).thenComparing(DevicePool::name))
                    .forEach(pools::add);
            for (DevicePool pool : pools) {
                for (Device device : pool.devices()) {
                    keys.add(pool.key() + "/" + device.name());
                    devices.add(device);
                    ofPool.add(pool);
                }
            }
        }

        List<List<String>> first() throws Exception {
            return request(0, 0) ? answer() : null;
        }

        /** Enumerates; checks only when the assignment is whole (no pruning: the oracle's point). */
        private boolean request(int c, int r) throws Exception {
            if (c == layout.claims().size()) {
                return valid();
            }
            List<DeviceRequest> requests = layout.claims().get(c).requests();
            if (r == requests.size()) {
                return request(c + 1, 0);
            }
            for (DeviceRequest.Way way : requests.get(r).ways()) {
                if (way.all()) {
                    int mark = picks.size();
                    boolean any = false;
                    for (int i = 0; i < keys.size(); i++) {
                        if (selects(way, i)) {
                            picks.add(new Pick(c, way, i));
                            any = true;
                        }
                    }
                    if (any && request(c, r + 1)) {
                        return true;
                    }
                    picks.subList(mark, picks.size()).clear();
                } else if (combination(c, r, way, 0, 0)) {
                    return true;
                }
            }
            return false;
        }

        private boolean combination(int c, int r, DeviceRequest.Way way, int done, int start) throws Exception {
            if (done == way.count()) {
                return request(c, r + 1);
            }
            for (int i = start; i < keys.size(); i++) {
                picks.add(new Pick(c, way, i));
                if (combination(c, r, way, done + 1, i + 1)) {
                    return true;
                }
                picks.remove(picks.size() - 1);
            }
            return false;
        }

        private boolean selects(DeviceRequest.Way way, int i) throws Exception {
            String driver = ofPool.get(i).driver();
            for (String s : CLASSES.get(way.deviceClassName()).selectors()) {
                if (!CEL.matches(s, driver, devices.get(i))) {
                    return false;
                }
            }
            for (String s : way.selectors()) {
                if (!CEL.matches(s, driver, devices.get(i))) {
                    return false;
                }
            }
            return true;
        }

        private boolean valid() throws Exception {
            Set<String> used = new java.util.HashSet<>();
            Map<String, java.math.BigDecimal> counters = new HashMap<>();
            for (int i = 0; i < keys.size(); i++) {
                if (layout.inUse().holds(keys.get(i))) {
                    consume(counters, i);
                }
            }
            for (Pick pick : picks) {
                int i = pick.candidate();
                if (layout.inUse().holds(keys.get(i)) || !used.add(keys.get(i)) || !selects(pick.way(), i)) {
                    return false;
                }
                for (Device.DeviceTaint taint : devices.get(i).taints()) {
                    if (taint.repels() && !pick.way().tolerates(taint)) {
                        return false;
                    }
                }
                consume(counters, i);
            }
            // a counter is asked only by the devices taken that consume it (held ones may have overdrawn it)
            Set<String> asked = new java.util.HashSet<>();
            for (Pick pick : picks) {
                DevicePool pool = ofPool.get(pick.candidate());
                devices.get(pick.candidate()).consumesCounters().forEach(use -> use.counters().keySet()
                        .forEach(counter -> asked.add(pool.key() + "/" + use.counterSet() + "/" + counter)));
            }
            for (String counter : asked) {
                if (counters.get(counter).signum() < 0) {
                    return false;
                }
            }
            for (int c = 0; c < layout.claims().size(); c++) {
                for (DeviceConstraint constraint : layout.claims().get(c).constraints()) {
                    List<DeviceAttribute> values = new ArrayList<>();
                    for (Pick pick : picks) {
                        if (pick.claim() == c && constraint.covers(pick.way().name())) {
                            DeviceAttribute value = devices.get(pick.candidate()).attributes().get(constraint.attribute());
                            if (value == null) {
                                return false;
                            }
                            values.add(value);
                        }
                    }
                    boolean ok = constraint.distinct() ? new java.util.HashSet<>(values).size() == values.size()
                            : values.stream().distinct().count() <= 1;
                    if (!ok) {
                        return false;
                    }
                }
            }
            return true;
        }

        /** Counters left per pool and set after device {@code i} takes its share (from the sets' values). */
        private void consume(Map<String, java.math.BigDecimal> left, int i) {
            DevicePool pool = ofPool.get(i);
            for (Device.CounterUse use : devices.get(i).consumesCounters()) {
                use.counters().forEach((counter, amount) -> {
                    String key = pool.key() + "/" + use.counterSet() + "/" + counter;
                    java.math.BigDecimal start = pool.counterSets().get(use.counterSet()).get(counter).value();
                    left.put(key, left.getOrDefault(key, start).subtract(amount.value()));
                });
            }
        }

        private List<List<String>> answer() {
            List<List<String>> out = new ArrayList<>();
            for (int c = 0; c < layout.claims().size(); c++) {
                List<String> claim = new ArrayList<>();
                for (Pick pick : picks) {
                    if (pick.claim() == c) {
                        DevicePool pool = ofPool.get(pick.candidate());
                        claim.add(pick.way().name() + "=" + pool.name() + "/" + devices.get(pick.candidate()).name());
                    }
                }
                out.add(claim);
            }
            return out;
        }
    }
}
