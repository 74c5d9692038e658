package dev.makeroom.core.rounds;

import dev.makeroom.core.rounds.affinity.AffinitySettings;
import dev.makeroom.core.rounds.consolidate.ConsolidateSettings;
import dev.makeroom.core.rounds.defragment.DefragmentSettings;
import dev.makeroom.core.rounds.duplicates.DuplicatesSettings;
import dev.makeroom.core.rounds.planner.ReschedulePlanner;
import dev.makeroom.core.rounds.rebalance.RebalanceSettings;
import dev.makeroom.core.rounds.spread.SpreadSettings;
import dev.makeroom.core.rounds.taints.TaintsSettings;

import java.time.Duration;
import java.util.HashMap;
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
    private final Map<Class<?>, PolicySettings> policies = new HashMap<>(everyPolicyOff());

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
        b.policies.putAll(settings.policies());
        return b;
    }

    /** Each policy's settings as a document without its section gives them, switched off. */
    public static Map<Class<?>, PolicySettings> everyPolicyOff() {
        Map<Class<?>, PolicySettings> off = new HashMap<>();
        for (RoundPolicy<?> policy : ReschedulePlanner.POLICIES) {
            off.put(policy.settingsType(), policy.read(new PolicySection("policies." + policy.section(), Map.of(),
                    policy.keys(), null, text -> null, off)).off());
        }
        return off;
    }

    /** The policy whose settings these are, with them. */
    public SettingsBuilder policy(PolicySettings settings) {
        policies.put(settings.getClass(), settings);
        return this;
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

    public SettingsBuilder defragment(DefragmentSettings defragment) {
        return policy(defragment);
    }

    /** The affinity policy on, moving for required rules only. */
    public SettingsBuilder affinity() {
        return affinity(0);
    }

    /** The affinity policy on; with {@code minGain} above 0 it also moves for preferences. */
    public SettingsBuilder affinity(int minGain) {
        return policy(new AffinitySettings(true, minGain));
    }

    public SettingsBuilder taints(TaintsSettings taints) {
        return policy(taints);
    }

    public SettingsBuilder spread(SpreadSettings spread) {
        return policy(spread);
    }

    public SettingsBuilder duplicates() {
        return policy(new DuplicatesSettings(true));
    }

    /** The rebalance policy on with these thresholds. */
    public SettingsBuilder rebalance(Map<String, Integer> low, Map<String, Integer> high) {
        return rebalance(new RebalanceSettings(true, low, high));
    }

    public SettingsBuilder rebalance(RebalanceSettings rebalance) {
        return policy(rebalance);
    }

    public SettingsBuilder consolidate(ConsolidateSettings consolidate) {
        return policy(consolidate);
    }

    public RescheduleSettings build() {
        return new RescheduleSettings(limits, aggressiveness, scope, allowLocalStorage, refusalBackoffMax, policies);
    }
}
