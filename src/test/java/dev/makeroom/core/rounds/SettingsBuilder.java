package dev.makeroom.core.rounds;

import java.time.Duration;
import java.util.Map;

/**
 * Rescheduler settings for tests and benchmarks. It starts from every policy off, every pod in scope,
 * budgets that may be spent whole, no pods with local storage moved and refused pods held back an hour
 * at most; each test then switches on what it is about.
 */
public final class SettingsBuilder {
    private RescheduleSettings.MoveLimits limits;
    private Aggressiveness aggressiveness = Aggressiveness.MODERATE;
    private Scope scope = Scope.ALL;
    private boolean allowLocalStorage;
    private Duration refusalBackoffMax = RescheduleSettings.REFUSAL_BACKOFF_MAX;
    private RescheduleSettings.Defragment defragment = RescheduleSettings.Defragment.OFF;
    private RescheduleSettings.Affinity affinity = RescheduleSettings.Affinity.OFF;
    private RescheduleSettings.Taints taints = RescheduleSettings.Taints.OFF;
    private RescheduleSettings.Spread spread = RescheduleSettings.Spread.OFF;
    private RescheduleSettings.Duplicates duplicates = RescheduleSettings.Duplicates.OFF;
    private RescheduleSettings.Rebalance rebalance = RescheduleSettings.Rebalance.OFF;
    private RescheduleSettings.Consolidate consolidate = RescheduleSettings.Consolidate.OFF;

    private SettingsBuilder(RescheduleSettings.MoveLimits limits) {
        this.limits = limits;
    }

    public static SettingsBuilder limits(RescheduleSettings.MoveLimits limits) {
        return new SettingsBuilder(limits);
    }

    /** Starts from {@code settings} as they are. */
    public static SettingsBuilder from(RescheduleSettings settings) {
        SettingsBuilder b = new SettingsBuilder(settings.limits());
        b.aggressiveness = settings.aggressiveness();
        b.scope = settings.scope();
        b.allowLocalStorage = settings.allowLocalStorage();
        b.refusalBackoffMax = settings.refusalBackoffMax();
        b.defragment = settings.defragment();
        b.affinity = settings.affinity();
        b.taints = settings.taints();
        b.spread = settings.spread();
        b.duplicates = settings.duplicates();
        b.rebalance = settings.rebalance();
        b.consolidate = settings.consolidate();
        return b;
    }

    public SettingsBuilder withLimits(RescheduleSettings.MoveLimits limits) {
        this.limits = limits;
        return this;
    }

    public SettingsBuilder aggressiveness(Aggressiveness aggressiveness) {
        this.aggressiveness = aggressiveness;
        return this;
    }

    public SettingsBuilder scope(Scope scope) {
        this.scope = scope;
        return this;
    }

    public SettingsBuilder allowLocalStorage(boolean allow) {
        this.allowLocalStorage = allow;
        return this;
    }

    public SettingsBuilder defragment(RescheduleSettings.Defragment defragment) {
        this.defragment = defragment;
        return this;
    }

    /** The affinity policy on, moving for required rules only. */
    public SettingsBuilder affinity() {
        return affinity(0);
    }

    /** The affinity policy on; with {@code minGain} above 0 it also moves for preferences. */
    public SettingsBuilder affinity(int minGain) {
        this.affinity = new RescheduleSettings.Affinity(true, minGain);
        return this;
    }

    public SettingsBuilder taints(RescheduleSettings.Taints taints) {
        this.taints = taints;
        return this;
    }

    public SettingsBuilder spread(RescheduleSettings.Spread spread) {
        this.spread = spread;
        return this;
    }

    public SettingsBuilder duplicates() {
        this.duplicates = new RescheduleSettings.Duplicates(true);
        return this;
    }

    /** The rebalance policy on with these thresholds. */
    public SettingsBuilder rebalance(Map<String, Integer> low, Map<String, Integer> high) {
        return rebalance(new RescheduleSettings.Rebalance(true, low, high));
    }

    public SettingsBuilder rebalance(RescheduleSettings.Rebalance rebalance) {
        this.rebalance = rebalance;
        return this;
    }

    public SettingsBuilder consolidate(RescheduleSettings.Consolidate consolidate) {
        this.consolidate = consolidate;
        return this;
    }

    public RescheduleSettings build() {
        return new RescheduleSettings(limits, aggressiveness, scope, allowLocalStorage, refusalBackoffMax, defragment,
                affinity, taints, spread, duplicates, rebalance, consolidate);
    }
}
