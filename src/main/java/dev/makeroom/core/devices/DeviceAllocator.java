package dev.makeroom.core.devices;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Whether a pod's unallocated claims can be allocated on one node, and with which devices, exactly as
 * the scheduler's DRA filter decides it (the 1.36 "incubating" structured allocator).
 *
 * <p><b>Design.</b> A depth-first search with backtracking over claim, then request, then way (the
 * request's {@code exactly}, or its {@code firstAvailable} subrequests in order), then devices. The
 * candidate devices are those of the complete pools that apply to the node, pools ordered by driver
 * and pool name, devices in their pool's order. An ExactCount way of {@code count} enumerates
 * combinations (each next device after the last one taken), an All way takes every device that
 * passes its selectors (at least one), and fails if any of them cannot be taken (an error where the
 * claim's constraints refuse one, as the scheduler calls such a claim senseless). The first full
 * solution wins: no device is preferred to another, so the answer is the scheduler's own whenever the
 * order is. A
 * device is taken for a way only if, in this order: nobody holds it (an allocated claim, or this
 * attempt; a device several claims may share only needs room; admin access skips the question), it
 * passes the class's selectors and then the way's, every capacity the way asks of it is there
 * (rounded up by its policy; a shared device's shares add up, and a capacity not asked for takes its
 * default or all of it), its pool's counters still cover what it consumes (a shared device already
 * holding a share consumes none again), every NoSchedule or NoExecute taint on it is tolerated, and
 * the claim's constraints that cover the way still hold (the first device fixes a
 * {@code matchAttribute} value; {@code distinctAttribute} values all differ). Exhaustive within one
 * pod and one node, as the scheduler's is; greedy across pods, since allocated claims never move.
 * Each selector is asked once per device and way in one call, and {@link DeviceSelectors} may keep
 * its answers per pool version across calls.
 */
public final class DeviceAllocator {

    private final DeviceSelectors selectors;

    public DeviceAllocator(DeviceSelectors selectors) {
        this.selectors = selectors;
    }

    /**
     * Whether {@code claims} (the pod's, none allocated yet) can be allocated on {@code node}, with
     * {@code pools} the cluster's newest pools, {@code classes} by name and {@code inUse} what
     * allocated claims hold.
     */
    public DeviceAllocation allocate(String node, Map<String, String> labels, List<DeviceClaim> claims,
                                     List<DevicePool> pools, Map<String, DeviceClass> classes, DevicesInUse inUse) {
        for (DeviceClaim claim : claims) {
            for (DeviceRequest request : claim.requests()) {
                for (DeviceRequest.Way way : request.ways()) {
                    if (!classes.containsKey(way.deviceClassName())) {
                        return new DeviceAllocation.Unschedulable("request " + way.name() + ": device class "
                                + way.deviceClassName() + " does not exist");
                    }
                }
            }
        }
        List<DevicePool> applying = new ArrayList<>(pools.size());
        for (DevicePool pool : pools) {
            if (pool.appliesTo(node, labels)) {
                applying.add(pool);
            }
        }
        if (applying.size() > 1) { // most nodes have one pool of each driver
            applying.sort(DevicePool.ALLOCATION_ORDER);
        }
        for (DevicePool pool : applying) {
            for (Device device : pool.devices()) {
                if (!device.unmodelled().isEmpty()) {
                    return new DeviceAllocation.Unmodelled("device " + pool.key() + "/" + device.name() + ": "
                            + device.unmodelled());
                }
            }
        }
        if (asksAll(claims)) {
            for (DevicePool pool : applying) {
                if (!pool.complete()) {
                    return new DeviceAllocation.Failed("pool " + pool.key() + " is incomplete: allocation mode All"
                            + " cannot be satisfied");
                }
            }
        }
        Search search = new Search(claims, applying, classes, inUse);
        try {
            return search.claim(0) ? new DeviceAllocation.Allocated(search.results())
                    : new DeviceAllocation.Unschedulable(DeviceAllocation.UNSCHEDULABLE);
        } catch (DeviceSelectors.SelectorError e) {
            return e.unmodelled() ? new DeviceAllocation.Unmodelled(e.getMessage()) : new DeviceAllocation.Failed(e.getMessage());
        } catch (AllError e) {
            return new DeviceAllocation.Failed(e.getMessage());
        }
    }

    private static boolean asksAll(List<DeviceClaim> claims) {
        for (DeviceClaim claim : claims) {
            for (DeviceRequest request : claim.requests()) {
                for (DeviceRequest.Way way : request.ways()) {
                    if (way.all()) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * An All request one of whose devices the claim's constraints refuse: the scheduler calls that a
     * claim that makes no sense and returns an error, not "unschedulable".
     */
    private static final class AllError extends Exception {
        AllError(String message) {
            super(message);
        }
    }

    /**
     * A device of an applying pool, with what holds its pool's devices and its place in the search's
     * order ({@code index}); one object per device and search, compared by identity.
     */
    private record Candidate(DevicePool pool, Device device, int inPool, DevicesInUse.PoolUse use, int index) {
        String key() {
            return pool.key() + "/" + device.name();
        }
    }

    /** What one attempt has taken so far. */
    private record Taken(int claim, DeviceRequest.Way way, Candidate candidate, Map<String, DeviceQuantity> consumed,
                         boolean countersTaken) {
    }

    /** One allocation attempt: the search's state, undone step by step as it backtracks. */
    private final class Search {
        private final List<DeviceClaim> claims;
        private final Map<String, DeviceClass> classes;
        private final DevicesInUse inUse;
        private final List<Candidate> candidates = new ArrayList<>();
        private final Map<String, DeviceQuantity> countersLeft = new HashMap<>(); // pool/set/counter -> left
        private final List<Taken> taken = new ArrayList<>();
        private int[] holders; // by candidate: times taken in this attempt
        private final Map<Candidate, Map<String, DeviceQuantity>> allocating = new IdentityHashMap<>(); // shares' capacity
        private final Map<DeviceRequest.Way, Map<Candidate, Boolean>> selected = new IdentityHashMap<>();
        private boolean constraintRefused; // why the last device was not taken: only this refusal of an All device is an error

        Search(List<DeviceClaim> claims, List<DevicePool> pools, Map<String, DeviceClass> classes, DevicesInUse inUse) {
            this.claims = claims;
            this.classes = classes;
            this.inUse = inUse;
            for (DevicePool pool : pools) {
                pool.counterSets().forEach((set, counters) -> counters.forEach((counter, amount) ->
                        countersLeft.put(pool.key() + "/" + set + "/" + counter, amount)));
                DevicesInUse.PoolUse use = inUse.inPool(pool.key());
                for (int d = 0; d < pool.devices().size(); d++) {
                    Device device = pool.devices().get(d);
                    if (!pool.counterSets().isEmpty() && use.holds(device.name())) {
                        consume(pool, device, -1); // devices allocated (whole or shared) consume their counters once
                    }
                    if (pool.complete()) {
                        candidates.add(new Candidate(pool, device, d, use, candidates.size()));
                    }
                }
            }
            holders = new int[candidates.size()];
        }

        boolean claim(int c) throws DeviceSelectors.SelectorError, AllError {
            return c == claims.size() || request(c, 0);
        }

        private boolean request(int c, int r) throws DeviceSelectors.SelectorError, AllError {
            List<DeviceRequest> requests = claims.get(c).requests();
            if (r == requests.size()) {
                return claim(c + 1);
            }
            for (DeviceRequest.Way way : requests.get(r).ways()) {
                if (way.all() ? all(c, r, way) : pick(c, r, way, 0, 0)) {
                    return true;
                }
            }
            return false;
        }

        /** ExactCount: the {@code done}-th device and on, each after the one before it. */
        private boolean pick(int c, int r, DeviceRequest.Way way, int done, int start) throws DeviceSelectors.SelectorError, AllError {
            if (done == way.count()) {
                return request(c, r + 1);
            }
            for (int i = start; i < candidates.size(); i++) {
                Candidate candidate = candidates.get(i);
                if (take(c, way, candidate)) {
                    if (pick(c, r, way, done + 1, i + 1)) {
                        return true;
                    }
                    untake();
                }
            }
            return false;
        }

        /**
         * All: every device that passes the way's selectors and has the capacity it asks, at least one;
         * one that cannot be taken fails the way, and one the constraints refuse is an error.
         */
        private boolean all(int c, int r, DeviceRequest.Way way) throws DeviceSelectors.SelectorError, AllError {
            int mark = taken.size();
            boolean any = false;
            for (Candidate candidate : candidates) {
                if (!passesSelectors(way, candidate) || !hasAskedCapacity(way, candidate)) {
                    continue;
                }
                any = true;
                if (!take(c, way, candidate)) {
                    undoTo(mark);
                    if (constraintRefused) {
                        throw new AllError("claim " + claims.get(c).ref() + ", request " + way.name() + ": cannot add device "
                                + candidate.key() + " because a claim constraint would not be satisfied");
                    }
                    return false;
                }
            }
            if (any && request(c, r + 1)) {
                return true;
            }
            undoTo(mark);
            return false;
        }

        private void undoTo(int mark) {
            while (taken.size() > mark) {
                untake();
            }
        }

        /** Takes {@code candidate} for {@code way} of claim {@code c} if every check passes. */
        private boolean take(int c, DeviceRequest.Way way, Candidate candidate) throws DeviceSelectors.SelectorError, AllError {
            Device device = candidate.device();
            boolean shared = device.allowMultipleAllocations();
            int held = holders[candidate.index()];
            boolean holdsIt = candidate.use().holds(device.name());
            if (!way.adminAccess() && (candidate.use().dedicated().contains(device.name())
                    || !shared && (held > 0 || holdsIt))) {
                return refused(false);
            }
            if (!passesSelectors(way, candidate)) {
                return refused(false);
            }
            Map<String, DeviceQuantity> consumed = way.adminAccess() ? Map.of() : capacityTaken(way, candidate);
            if (consumed == null) {
                return refused(false);
            }
            boolean counters = !way.adminAccess() && !(shared && (held > 0 || holdsIt));
            if (counters && !countersCover(candidate)) {
                return refused(false);
            }
            for (Device.DeviceTaint taint : device.taints()) {
                if (taint.repels() && !way.tolerates(taint)) {
                    return refused(false);
                }
            }
            if (!constraintsHold(c, way, candidate)) {
                return refused(true);
            }
            constraintRefused = false;
            taken.add(new Taken(c, way, candidate, consumed, counters));
            holders[candidate.index()]++;
            if (shared && !consumed.isEmpty()) {
                Map<String, DeviceQuantity> now = allocating.computeIfAbsent(candidate, k -> new HashMap<>());
                consumed.forEach((capacity, amount) -> now.merge(capacity, amount, DeviceQuantity::plus));
            }
            if (counters) {
                consume(candidate.pool(), device, -1);
            }
            return true;
        }

        private boolean refused(boolean byConstraint) {
            constraintRefused = byConstraint;
            return false;
        }

        /** Whether the device has every capacity the way asks, at least as much as asked (All's list of devices). */
        private boolean hasAskedCapacity(DeviceRequest.Way way, Candidate candidate) {
            for (Map.Entry<String, DeviceQuantity> asked : way.capacity().entrySet()) {
                DeviceCapacity capacity = candidate.device().capacity()
                        .get(Device.qualified(candidate.pool().driver(), asked.getKey()));
                if (capacity == null || capacity.value().compareTo(asked.getValue()) < 0) {
                    return false;
                }
            }
            return true;
        }

        private void untake() {
            Taken last = taken.remove(taken.size() - 1);
            Candidate candidate = last.candidate();
            holders[candidate.index()]--;
            Map<String, DeviceQuantity> now = allocating.get(candidate);
            if (now != null) {
                last.consumed().forEach((capacity, amount) -> now.merge(capacity, amount, DeviceQuantity::minus));
            }
            if (last.countersTaken()) {
                consume(candidate.pool(), candidate.device(), 1);
            }
        }

        /** The class's selectors, then the way's; each evaluated once per device and way. */
        private boolean passesSelectors(DeviceRequest.Way way, Candidate candidate) throws DeviceSelectors.SelectorError, AllError {
            Map<Candidate, Boolean> cache = selected.computeIfAbsent(way, w -> new IdentityHashMap<>());
            Boolean known = cache.get(candidate);
            if (known != null) {
                return known;
            }
            boolean passes = true;
            DeviceClass deviceClass = classes.get(way.deviceClassName());
            for (String expression : deviceClass.selectors()) {
                if (!selectors.matches(expression, candidate.pool(), candidate.inPool())) {
                    passes = false;
                    break;
                }
            }
            for (int i = 0; passes && i < way.selectors().size(); i++) {
                passes = selectors.matches(way.selectors().get(i), candidate.pool(), candidate.inPool());
            }
            cache.put(candidate, passes);
            return passes;
        }

        /**
         * What taking the device for {@code way} consumes of its capacities; null when it does not have
         * a capacity asked for or has too little left. An exclusive device consumes nothing of record (it
         * is taken whole), but must have what is asked.
         */
        private Map<String, DeviceQuantity> capacityTaken(DeviceRequest.Way way, Candidate candidate) {
            Device device = candidate.device();
            Map<String, DeviceQuantity> asking = new HashMap<>();
            way.capacity().forEach((name, amount) -> asking.put(Device.qualified(candidate.pool().driver(), name), amount));
            for (String asked : asking.keySet()) {
                if (!device.capacity().containsKey(asked)) {
                    return null;
                }
            }
            Map<String, DeviceQuantity> consumed = new HashMap<>();
            for (Map.Entry<String, DeviceCapacity> capacity : device.capacity().entrySet()) {
                DeviceQuantity asked = asking.get(capacity.getKey());
                if (!device.allowMultipleAllocations() && asked == null) {
                    continue;
                }
                DeviceQuantity amount = capacity.getValue().consumed(asked);
                if (amount == null) {
                    return null;
                }
                if (!device.allowMultipleAllocations()) {
                    if (amount.compareTo(capacity.getValue().value()) > 0) {
                        return null;
                    }
                    continue;
                }
                DeviceQuantity already = candidate.use().shared().getOrDefault(device.name(), Map.of())
                        .getOrDefault(capacity.getKey(), DeviceQuantity.ZERO)
                        .plus(allocating.getOrDefault(candidate, Map.of()).getOrDefault(capacity.getKey(), DeviceQuantity.ZERO));
                if (already.plus(amount).compareTo(capacity.getValue().value()) > 0) {
                    return null;
                }
                consumed.put(capacity.getKey(), amount);
            }
            return device.allowMultipleAllocations() ? consumed : Map.of();
        }

        private boolean countersCover(Candidate candidate) {
            for (Device.CounterUse use : candidate.device().consumesCounters()) {
                Map<String, DeviceQuantity> set = candidate.pool().counterSets().get(use.counterSet());
                if (set == null) {
                    return false;
                }
                for (Map.Entry<String, DeviceQuantity> counter : use.counters().entrySet()) {
                    DeviceQuantity left = countersLeft.get(candidate.pool().key() + "/" + use.counterSet() + "/" + counter.getKey());
                    if (left == null || left.minus(counter.getValue()).signum() < 0) {
                        return false;
                    }
                }
            }
            return true;
        }

        /** Adds ({@code sign} 1) or takes (-1) what the device consumes of its pool's counters. */
        private void consume(DevicePool pool, Device device, int sign) {
            for (Device.CounterUse use : device.consumesCounters()) {
                use.counters().forEach((counter, amount) -> countersLeft.computeIfPresent(
                        pool.key() + "/" + use.counterSet() + "/" + counter,
                        (k, left) -> sign > 0 ? left.plus(amount) : left.minus(amount)));
            }
        }

        private boolean constraintsHold(int c, DeviceRequest.Way way, Candidate candidate) {
            for (DeviceConstraint constraint : claims.get(c).constraints()) {
                if (!constraint.covers(way.name())) {
                    continue;
                }
                DeviceAttribute value = candidate.device().attributes().get(constraint.attribute());
                if (value == null) {
                    return false;
                }
                for (Taken earlier : taken) {
                    if (earlier.claim() != c || !constraint.covers(earlier.way().name())) {
                        continue;
                    }
                    DeviceAttribute other = earlier.candidate().device().attributes().get(constraint.attribute());
                    if (constraint.distinct() == Objects.equals(value, other)) {
                        return false;
                    }
                }
            }
            return true;
        }

        /** The devices taken, per claim, as allocation results. */
        List<DeviceAllocation.ClaimDevices> results() {
            List<DeviceAllocation.ClaimDevices> out = new ArrayList<>();
            for (int c = 0; c < claims.size(); c++) {
                List<DeviceClaim.DeviceResult> devices = new ArrayList<>();
                for (Taken t : taken) {
                    if (t.claim() == c) {
                        Candidate candidate = t.candidate();
                        devices.add(new DeviceClaim.DeviceResult(t.way().name(), candidate.pool().driver(),
                                candidate.pool().name(), candidate.device().name(), t.way().adminAccess(),
                                // a share of a device several claims may hold: its id is the scheduler's to give
                                candidate.device().allowMultipleAllocations() ? "new" : null, t.consumed()));
                    }
                }
                out.add(new DeviceAllocation.ClaimDevices(claims.get(c), devices));
            }
            return out;
        }
    }
}
