package dev.makeroom.core.room;

import dev.makeroom.core.model.PodColumns;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What evicting a running pod destroys, for the work-lost objective (before the count), the default
 * objective (its first tie-break, {@link WorkRank}) and defragmentation's moves: the progress it made since the
 * later of its start and its last checkpoint ({@code makeroom.dev/checkpointed-at}), weighed by what it
 * holds. A pod's work lost is {@code Σ weight(r) × request(r)} times those seconds, in
 * <em>milli-units</em> (a thousandth of a weight-unit-second), so that every price is a whole number.
 *
 * <p>Units: cpu per core, memory and ephemeral-storage per GiB, any other resource per whole unit.
 * Without weights of its own the price weighs cpu by 1 a core and every resource whose name ends in
 * {@code gpu} by 50 a unit, nothing else.
 *
 * <p>The seconds are capped by a horizon: a workload that never checkpoints is charged from its start,
 * and the horizon bounds what it gains over one that saves its progress (docs/decisions.md).
 */
public final class WorkPrice implements PodColumns.RateOf {

    /** Nothing priced: every pod costs nothing, so the price never enters a comparison. */
    public static final WorkPrice NONE = new WorkPrice(null, Duration.ZERO, false);

    /** The price without weights of its own: cpu 1 a core, GPUs 50 a unit, a day's progress at most. */
    public static final WorkPrice DEFAULT = of(Map.of(), Duration.ofHours(24));

    static final long MILLI = 1000;
    private static final double GIB = 1024.0 * 1024 * 1024;
    private static final double DEFAULT_GPU_WEIGHT = 50;

    private final Map<String, Double> weights; // null: the default rule
    // each resource name's weight as first asked: the rule runs for every candidate of every node
    private final Map<String, Double> weightOf = new ConcurrentHashMap<>();
    private final long horizonSeconds;
    private final boolean counts;
    // the weights of the names nearly every pod requests, read without a map: every candidate of every
    // node of a decision is priced, under either objective
    private final double cpuWeight;
    private final double memoryWeight;

    private WorkPrice(Map<String, Double> weights, Duration horizon, boolean counts) {
        this.weights = weights == null ? null : Map.copyOf(weights);
        this.horizonSeconds = horizon.getSeconds();
        this.counts = counts;
        this.cpuWeight = weighed(Resources.CPU);
        this.memoryWeight = weighed(Resources.MEMORY);
    }

    /**
     * The work-lost price: {@code weights} per resource (empty: the default rule above); at most
     * {@code horizon} of unsaved progress is charged a pod.
     */
    public static WorkPrice of(Map<String, Double> weights, Duration horizon) {
        if (horizon.isNegative() || horizon.isZero()) {
            throw new IllegalArgumentException("the horizon must be above 0s, was " + horizon);
        }
        weights.forEach((resource, weight) -> {
            if (weight == null || !(weight >= 0) || Double.isInfinite(weight)) {
                throw new IllegalArgumentException("the weight of " + resource + " must be a number of at least 0, was "
                        + weight);
            }
        });
        return new WorkPrice(weights.isEmpty() ? null : weights, horizon, true);
    }

    /** Whether work lost is part of the objective (false for the default, {@link #NONE}). */
    public boolean counts() {
        return counts;
    }

    /** The weight of one unit of {@code resource}. */
    private double weight(String resource) {
        Double known = weightOf.get(resource);
        if (known == null) {
            known = weighed(resource);
            weightOf.put(resource, known);
        }
        return known;
    }

    private double weighed(String resource) {
        if (weights != null) {
            return weights.getOrDefault(resource, 0.0);
        }
        if (Resources.CPU.equals(resource)) {
            return 1;
        }
        return resource.toLowerCase(Locale.ROOT).endsWith("gpu") ? DEFAULT_GPU_WEIGHT : 0;
    }

    /** What a pod holding {@code requests} loses a second it runs unsaved, in milli-units. */
    @Override
    public long rate(Resources requests) {
        double rate = 0;
        for (int d = 0; d < requests.size(); d++) {
            String resource = requests.name(d);
            // names are interned (Resources): the common ones are told apart by identity
            double weight = resource == Resources.CPU ? cpuWeight : resource == Resources.MEMORY ? memoryWeight
                    : weight(resource);
            if (weight > 0) {
                rate += weight * inUnits(resource, requests.value(d));
            }
        }
        return Math.round(rate * MILLI);
    }

    /** {@code pod}'s work lost if it were evicted at {@code now}, in milli-units: 0 for a pod not started. */
    public long of(PodInfo pod, Instant now) {
        if (!counts) {
            return 0;
        }
        return rate(pod.requests()) * unsavedSeconds(PodColumns.savedSecondOf(pod), now.getEpochSecond());
    }

    /** As {@link #of(PodInfo, Instant)}, for the pod of {@code row} of its node's {@code columns}. */
    long of(PodColumns columns, int row, Instant now) {
        if (!counts) {
            return 0;
        }
        return columns.ratesBy(this)[row] * unsavedSeconds(columns.savedSecond(row), now.getEpochSecond());
    }

    /** The seconds of progress an eviction at {@code now} would lose, saved since {@code savedSecond}: capped. */
    private long unsavedSeconds(long savedSecond, long now) {
        if (savedSecond == PodColumns.NOT_STARTED) {
            return 0;
        }
        return Math.max(0, Math.min(now - savedSecond, horizonSeconds));
    }

    /**
     * The price at one moment, as a decision reads it (every node of a decision is priced at the same
     * instant), ranked before the count as the work-lost objective ranks it.
     */
    public At at(Instant now) {
        return at(now, WorkRank.BEFORE_COUNT);
    }

    /** The price at {@code now}, ranked in the objective as {@code rank} says. */
    public At at(Instant now, WorkRank rank) {
        return new At(this, now, rank);
    }

    private static double inUnits(String resource, long value) {
        return switch (resource) {
            case Resources.CPU -> value / 1000.0;
            case Resources.MEMORY, "ephemeral-storage" -> value / GIB;
            default -> value;
        };
    }

    /** A {@link WorkPrice} at a fixed instant, and where the objective ranks it. */
    public record At(WorkPrice price, Instant now, WorkRank rank) {

        /** Nothing counts: every pod loses 0. */
        public static final At NONE = new At(WorkPrice.NONE, Instant.EPOCH, WorkRank.FIRST_TIE_BREAK);

        /** Whether pods are priced at all (false only for {@link #NONE}). */
        public boolean counts() {
            return price.counts();
        }

        /** Whether work lost is weighed before the count (the work-lost objective). */
        public boolean beforeCount() {
            return counts() && rank == WorkRank.BEFORE_COUNT;
        }

        /** {@code pod}'s work lost, in milli-units. */
        public long of(PodInfo pod) {
            return price.of(pod, now);
        }

        /** The work lost of the pod of {@code row} of its node's {@code columns}, as {@link #of(PodInfo)} prices it. */
        long of(PodColumns columns, int row) {
            return price.of(columns, row, now);
        }

        /** What evicting all of {@code pods} loses, in milli-units. */
        public long ofAll(List<PodInfo> pods) {
            long work = 0;
            for (PodInfo pod : pods) {
                work += of(pod);
            }
            return work;
        }
    }

    /** Milli-units as hours of one weight unit (e.g. cpu-core-hours), for people. */
    public static double hours(long milliUnits) {
        return seconds(milliUnits) / 3600.0;
    }

    /** Milli-units in hours, as decisions show them: "67.67 h of work lost". */
    public static String describe(long milliUnits) {
        return String.format(Locale.ROOT, "%.2f h of work lost", hours(milliUnits));
    }

    /** Milli-units as seconds of one weight unit, for metrics. */
    public static double seconds(long milliUnits) {
        return milliUnits / (double) MILLI;
    }
}
