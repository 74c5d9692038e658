package dev.makeroom.rescheduler;

import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.rounds.Aggressiveness;
import dev.makeroom.core.rounds.RescheduleSettings;
import dev.makeroom.core.rounds.Scope;
import dev.makeroom.queueconfig.GoDuration;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads the rescheduler document ({@code rescheduler.yaml}); the README's "Rescheduler" section shows
 * it. Strict: an unknown key, a threshold of a name no node has as a resource, or outside 0..100, a
 * {@code low} not below its {@code high}, a negative limit or a duration that is not one rejects the
 * whole document, naming the key.
 * Defragmentation is on unless the document turns it off; the other policies are off unless turned on.
 * {@code aggressiveness} (gentle, moderate, aggressive) fills in the rebalance thresholds and the
 * preferred-affinity gain the document leaves out, and sets how much of each disruption budget the
 * rounds may spend; without it, budgets may be spent whole and nothing else is assumed.
 */
public final class ReschedulerConfigParser {

    /** Defragmentation's settings where the document says nothing. */
    static final RescheduleSettings.Defragment DEFRAGMENT = RescheduleSettings.Defragment.DEFAULTS;

    /** What an absent or empty document means: defragmentation on, rebalance and affinity off, modest limits. */
    public static final RescheduleSettings DEFAULTS = new RescheduleSettings(
            new RescheduleSettings.MoveLimits(10, 2, 20, 1, 50), Aggressiveness.MODERATE, Scope.ALL, false,
            RescheduleSettings.REFUSAL_BACKOFF_MAX, DEFRAGMENT, RescheduleSettings.Affinity.OFF,
            RescheduleSettings.Taints.OFF, RescheduleSettings.Spread.OFF, RescheduleSettings.Duplicates.OFF,
            RescheduleSettings.Rebalance.OFF, RescheduleSettings.Consolidate.OFF);

    private static final Set<String> TOP = Set.of("apiVersion", "kind", "aggressiveness", "policies", "limits",
            "allowLocalStorage", "refusalBackoffMax", "scope");

    /** The versioned form's header, as Kubernetes-style documents (a DeschedulerPolicy) carry one; optional. */
    public static final String API_VERSION = "makeroom.dev/v1";
    public static final String KIND = "ReschedulerPolicy";
    private static final Set<String> POLICIES = Set.of("rebalance", "affinity", "defragment", "taints", "spread",
            "duplicates", "consolidate");
    private static final Set<String> CONSOLIDATE = Set.of("enabled", "below", "ceiling", "drainWithin", "nodesAtOnce",
            "keepEmptyFor", "moveWholeGangs");
    private static final Set<String> ENABLED = Set.of("enabled");
    private static final Set<String> TAINTS = Set.of("enabled", "keys");
    private static final Set<String> SPREAD = Set.of("enabled", "scheduleAnyway");
    private static final Set<String> SCOPE = Set.of("namespaces", "podSelector", "nodeSelector", "priorityThreshold",
            "minPodAge", "minReplicas");
    private static final Set<String> NAMESPACES = Set.of("include", "exclude");
    private static final Set<String> SELECTOR = Set.of("matchLabels", "matchExpressions");
    private static final Set<String> EXPRESSION = Set.of("key", "operator", "values");
    private static final Set<String> DEFRAGMENT_KEYS = Set.of("enabled", "after", "schedulerNames", "reserveFor",
            "maxMoves", "searchBudget");
    private static final Set<String> REBALANCE = Set.of("enabled", "low", "high");
    private static final Set<String> AFFINITY = Set.of("enabled", "minGain");
    private static final Set<String> LIMITS = Set.of("perRound", "perNodePerRound", "perNamespacePerHour",
            "perControllerPerHour", "clusterPerHour");

    private ReschedulerConfigParser() {
    }

    public static RescheduleSettings parse(String yaml) {
        Object doc;
        try {
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(false);
            options.setMaxAliasesForCollections(10);
            options.setCodePointLimit(1 << 20);
            doc = new Yaml(new SafeConstructor(options)).load(yaml);
        } catch (YAMLException e) {
            throw new InvalidReschedulerConfigException("not valid YAML: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (doc == null) {
            return DEFAULTS;
        }
        Map<String, Object> top = map(doc, "the document", TOP);
        checkHeader(top);
        Map<String, Object> policies = map(top.getOrDefault("policies", Map.of()), "policies", POLICIES);
        Map<String, Object> rebalance = map(policies.getOrDefault("rebalance", Map.of()), "policies.rebalance", REBALANCE);
        Map<String, Object> affinity = map(policies.getOrDefault("affinity", Map.of()), "policies.affinity", AFFINITY);
        Aggressiveness aggressiveness = aggressiveness(top.get("aggressiveness"));
        // a level gives the thresholds and gain the document leaves out; without one, nothing is assumed
        Map<String, Object> levelThresholds = aggressiveness == null ? Map.of()
                : Map.of("cpu", aggressiveness.lowPercent(), "memory", aggressiveness.lowPercent());
        Map<String, Object> levelHigh = aggressiveness == null ? Map.of()
                : Map.of("cpu", aggressiveness.highPercent(), "memory", aggressiveness.highPercent());
        Map<String, Integer> low = percents(rebalance.getOrDefault("low", levelThresholds), "policies.rebalance.low");
        Map<String, Integer> high = percents(rebalance.getOrDefault("high", levelHigh), "policies.rebalance.high");
        boolean rebalancing = bool(rebalance.getOrDefault("enabled", false), "policies.rebalance.enabled");
        if (rebalancing && (low.isEmpty() || high.isEmpty())) {
            throw new InvalidReschedulerConfigException("policies.rebalance needs low and high thresholds");
        }
        low.forEach((resource, percent) -> {
            Integer top2 = high.get(resource);
            if (top2 != null && percent >= top2) {
                throw new InvalidReschedulerConfigException("policies.rebalance.low." + resource + " (" + percent
                        + ") must be below policies.rebalance.high." + resource + " (" + top2 + ")");
            }
        });
        Map<String, Object> limits = map(top.getOrDefault("limits", Map.of()), "limits", LIMITS);
        RescheduleSettings.MoveLimits d = DEFAULTS.limits();
        Map<String, Object> defragment = map(policies.getOrDefault("defragment", Map.of()), "policies.defragment",
                DEFRAGMENT_KEYS);
        Map<String, Object> taints = map(policies.getOrDefault("taints", Map.of()), "policies.taints", TAINTS);
        Map<String, Object> spread = map(policies.getOrDefault("spread", Map.of()), "policies.spread", SPREAD);
        Map<String, Object> duplicates = map(policies.getOrDefault("duplicates", Map.of()), "policies.duplicates", ENABLED);
        return new RescheduleSettings(
                new RescheduleSettings.MoveLimits(count(limits, "perRound", d.perRound()),
                        count(limits, "perNodePerRound", d.perNodePerRound()),
                        count(limits, "perNamespacePerHour", d.perNamespacePerHour()),
                        count(limits, "perControllerPerHour", d.perControllerPerHour()),
                        count(limits, "clusterPerHour", d.clusterPerHour())),
                aggressiveness == null ? Aggressiveness.MODERATE : aggressiveness,
                scope(map(top.getOrDefault("scope", Map.of()), "scope", SCOPE)),
                bool(top.getOrDefault("allowLocalStorage", false), "allowLocalStorage"),
                positive(duration(top, "refusalBackoffMax", RescheduleSettings.REFUSAL_BACKOFF_MAX, ""), "refusalBackoffMax"),
                defragment(defragment),
                new RescheduleSettings.Affinity(bool(affinity.getOrDefault("enabled", false), "policies.affinity.enabled"),
                        minGain(affinity.getOrDefault("minGain", aggressiveness == null ? 0 : aggressiveness.minGain()))),
                new RescheduleSettings.Taints(bool(taints.getOrDefault("enabled", false), "policies.taints.enabled"),
                        Set.copyOf(names(taints.getOrDefault("keys", List.of()), "policies.taints.keys"))),
                new RescheduleSettings.Spread(bool(spread.getOrDefault("enabled", false), "policies.spread.enabled"),
                        bool(spread.getOrDefault("scheduleAnyway", false), "policies.spread.scheduleAnyway")),
                new RescheduleSettings.Duplicates(bool(duplicates.getOrDefault("enabled", false),
                        "policies.duplicates.enabled")),
                new RescheduleSettings.Rebalance(rebalancing, low, high),
                consolidate(map(policies.getOrDefault("consolidate", Map.of()), "policies.consolidate", CONSOLIDATE),
                        rebalancing ? high : Map.of()));
    }

    /**
     * The consolidate policy: {@code below} and {@code ceiling} are needed when it is on, each
     * {@code below} under its {@code ceiling}, and with rebalancing on no {@code ceiling} above its
     * {@code high} (a node packed to the ceiling would be shed again).
     */
    private static RescheduleSettings.Consolidate consolidate(Map<String, Object> doc, Map<String, Integer> high) {
        String where = "policies.consolidate.";
        boolean enabled = bool(doc.getOrDefault("enabled", false), where + "enabled");
        Map<String, Integer> below = percents(doc.getOrDefault("below", Map.of()), where + "below");
        Map<String, Integer> ceiling = percents(doc.getOrDefault("ceiling", Map.of()), where + "ceiling");
        if (enabled && (below.isEmpty() || ceiling.isEmpty())) {
            throw new InvalidReschedulerConfigException("policies.consolidate needs below and ceiling thresholds");
        }
        below.forEach((resource, percent) -> {
            Integer top = ceiling.get(resource);
            if (top != null && percent >= top) {
                throw new InvalidReschedulerConfigException(where + "below." + resource + " (" + percent
                        + ") must be below " + where + "ceiling." + resource + " (" + top + ")");
            }
        });
        ceiling.forEach((resource, percent) -> {
            Integer most = high.get(resource);
            if (most != null && percent > most) {
                throw new InvalidReschedulerConfigException(where + "ceiling." + resource + " (" + percent
                        + ") must not be above policies.rebalance.high." + resource + " (" + most
                        + "): rebalance would shed a node consolidation packed");
            }
        });
        int nodesAtOnce = count(doc, "nodesAtOnce", RescheduleSettings.Consolidate.OFF.nodesAtOnce(), where);
        if (nodesAtOnce < 1) {
            throw new InvalidReschedulerConfigException(where + "nodesAtOnce must be 1 or more");
        }
        return new RescheduleSettings.Consolidate(enabled, below, ceiling, positive(duration(doc, "drainWithin",
                RescheduleSettings.Consolidate.OFF.drainWithin(), where), where + "drainWithin"), nodesAtOnce,
                duration(doc, "keepEmptyFor", RescheduleSettings.Consolidate.OFF.keepEmptyFor(), where),
                bool(doc.getOrDefault("moveWholeGangs", false), where + "moveWholeGangs"));
    }

    private static Scope scope(Map<String, Object> doc) {
        Map<String, Object> namespaces = map(doc.getOrDefault("namespaces", Map.of()), "scope.namespaces", NAMESPACES);
        Object threshold = doc.get("priorityThreshold");
        if (threshold != null && !(threshold instanceof Integer)) {
            throw new InvalidReschedulerConfigException("scope.priorityThreshold must be a whole number (a priority:"
                    + " pods at or above it never move)");
        }
        int minReplicas = count(doc, "minReplicas", 0, "scope.");
        return new Scope(Set.copyOf(names(namespaces.getOrDefault("include", List.of()), "scope.namespaces.include")),
                Set.copyOf(names(namespaces.getOrDefault("exclude", List.of()), "scope.namespaces.exclude")),
                selector(doc.getOrDefault("podSelector", Map.of()), "scope.podSelector"),
                selector(doc.getOrDefault("nodeSelector", Map.of()), "scope.nodeSelector"),
                (Integer) threshold, duration(doc, "minPodAge", Duration.ZERO, "scope."), minReplicas);
    }

    /** A label selector as Kubernetes writes one: matchLabels, and matchExpressions of In, NotIn, Exists, DoesNotExist. */
    private static LabelSelector selector(Object value, String where) {
        Map<String, Object> doc = map(value, where, SELECTOR);
        Map<String, String> labels = new LinkedHashMap<>();
        map(doc.getOrDefault("matchLabels", Map.of()), where + ".matchLabels", null).forEach((k, v) -> {
            if (!(v instanceof String text)) {
                throw new InvalidReschedulerConfigException(where + ".matchLabels." + k + " must be a string");
            }
            labels.put(k, text);
        });
        Object expressions = doc.getOrDefault("matchExpressions", List.of());
        if (!(expressions instanceof List<?> list)) {
            throw new InvalidReschedulerConfigException(where + ".matchExpressions must be a list");
        }
        List<LabelSelector.Requirement> requirements = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            String at = where + ".matchExpressions[" + i + "]";
            Map<String, Object> e = map(list.get(i), at, EXPRESSION);
            if (!(e.get("key") instanceof String key) || key.isBlank()) {
                throw new InvalidReschedulerConfigException(at + ".key must be a label key");
            }
            LabelSelector.Operator operator = switch (String.valueOf(e.get("operator"))) {
                case "In" -> LabelSelector.Operator.IN;
                case "NotIn" -> LabelSelector.Operator.NOT_IN;
                case "Exists" -> LabelSelector.Operator.EXISTS;
                case "DoesNotExist" -> LabelSelector.Operator.DOES_NOT_EXIST;
                default -> throw new InvalidReschedulerConfigException(at + ".operator must be In, NotIn, Exists or DoesNotExist");
            };
            List<String> values = names(e.getOrDefault("values", List.of()), at + ".values");
            boolean setBased = operator == LabelSelector.Operator.IN || operator == LabelSelector.Operator.NOT_IN;
            if (setBased == values.isEmpty()) {
                throw new InvalidReschedulerConfigException(at + ".values must be " + (setBased
                        ? "a non-empty list for In and NotIn" : "absent for Exists and DoesNotExist"));
            }
            requirements.add(new LabelSelector.Requirement(key, operator, values));
        }
        return new LabelSelector(labels, requirements);
    }

    /**
     * The versioned form names {@value #API_VERSION} and {@value #KIND}, both or neither: a document
     * of another version or kind (a DeschedulerPolicy given by mistake) is refused, never half read.
     */
    private static void checkHeader(Map<String, Object> top) {
        Object apiVersion = top.get("apiVersion");
        Object kind = top.get("kind");
        if (apiVersion == null && kind == null) {
            return; // the unversioned form
        }
        if (!API_VERSION.equals(apiVersion) || !KIND.equals(kind)) {
            throw new InvalidReschedulerConfigException("apiVersion " + apiVersion + ", kind " + kind
                    + " is not a document makeroom reads: write apiVersion: " + API_VERSION + " and kind: " + KIND
                    + ", or neither");
        }
    }

    /** A list of non-blank strings (namespaces, taint keys, label values). */
    private static List<String> names(Object value, String where) {
        if (!(value instanceof List<?> list) || !list.stream().allMatch(n -> n instanceof String s && !s.isBlank())) {
            throw new InvalidReschedulerConfigException(where + " must be a list of names");
        }
        return list.stream().map(String.class::cast).toList();
    }

    private static RescheduleSettings.Defragment defragment(Map<String, Object> doc) {
        String where = "policies.defragment.";
        int maxMoves = count(doc, "maxMoves", DEFRAGMENT.maxMoves(), where);
        if (maxMoves < 1 || maxMoves > 8) {
            throw new InvalidReschedulerConfigException(where + "maxMoves must be 1..8 (the search is exact over sets of this size)");
        }
        Object names = doc.getOrDefault("schedulerNames", List.copyOf(DEFRAGMENT.schedulerNames()));
        if (!(names instanceof List<?> list) || list.isEmpty() || !list.stream().allMatch(n -> n instanceof String s && !s.isBlank())) {
            throw new InvalidReschedulerConfigException(where + "schedulerNames must be a list of scheduler names");
        }
        return new RescheduleSettings.Defragment(bool(doc.getOrDefault("enabled", true), where + "enabled"),
                duration(doc, "after", DEFRAGMENT.after(), where), list.stream().map(String.class::cast).collect(Collectors.toSet()),
                positive(duration(doc, "reserveFor", DEFRAGMENT.reserveFor(), where), where + "reserveFor"), maxMoves,
                positive(duration(doc, "searchBudget", DEFRAGMENT.searchBudget(), where), where + "searchBudget"));
    }

    private static Duration duration(Map<String, Object> doc, String key, Duration fallback, String where) {
        Object value = doc.get(key);
        if (value == null) {
            return fallback;
        }
        Duration parsed = value instanceof String text ? GoDuration.parse(text) : null;
        if (parsed == null || parsed.isNegative()) {
            throw new InvalidReschedulerConfigException(where + key + " must be a duration such as 30s or 2m");
        }
        return parsed;
    }

    private static Duration positive(Duration duration, String key) {
        if (duration.isZero()) {
            throw new InvalidReschedulerConfigException(key + " must be more than 0");
        }
        return duration;
    }

    /** The value as a mapping with string keys, each among {@code allowed} (null: any key). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value, String where, Set<String> allowed) {
        if (!(value instanceof Map<?, ?> raw)) {
            throw new InvalidReschedulerConfigException(where + " must be a mapping");
        }
        for (Object key : raw.keySet()) {
            if (!(key instanceof String k)) {
                throw new InvalidReschedulerConfigException(where + ": key " + key + " must be a string");
            }
            if (allowed != null && !allowed.contains(k)) {
                throw new InvalidReschedulerConfigException("unknown key " + key + " in " + where
                        + " (known: " + String.join(", ", allowed.stream().sorted().toList()) + ")");
            }
        }
        return (Map<String, Object>) raw;
    }

    private static Map<String, Integer> percents(Object value, String where) {
        if (!(value instanceof Map<?, ?> raw)) {
            throw new InvalidReschedulerConfigException(where + " must map resources to percents");
        }
        Map<String, Integer> percents = new LinkedHashMap<>();
        raw.forEach((resource, percent) -> {
            if (!isResourceName(String.valueOf(resource))) {
                throw new InvalidReschedulerConfigException(where + "." + resource + ": not a resource (cpu, memory,"
                        + " ephemeral-storage, pods, hugepages-<size>, or an extended resource such as nvidia.com/gpu)");
            }
            if (!(percent instanceof Integer p) || p < 0 || p > 100) {
                throw new InvalidReschedulerConfigException(where + "." + resource + " must be a whole percent 0..100");
            }
            percents.put(String.valueOf(resource), p);
        });
        return percents;
    }

    /**
     * Whether a node could have this resource in its allocatable: the built-in names, hugepages of a size,
     * or an extended resource, which Kubernetes always names with a domain ({@code example.com/thing}).
     * A misspelt name would never be over a threshold, so rebalance would silently do nothing.
     */
    static boolean isResourceName(String name) {
        return switch (name) {
            case "cpu", "memory", "ephemeral-storage", "pods" -> true;
            default -> (name.startsWith("hugepages-") && name.length() > "hugepages-".length())
                    || name.matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?/[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
        };
    }

    private static Aggressiveness aggressiveness(Object value) {
        if (value == null) {
            return null;
        }
        for (Aggressiveness level : Aggressiveness.values()) {
            if (level.name().toLowerCase(java.util.Locale.ROOT).equals(value)) {
                return level;
            }
        }
        throw new InvalidReschedulerConfigException("aggressiveness must be gentle, moderate or aggressive, not " + value);
    }

    private static int minGain(Object value) {
        if (!(value instanceof Integer n) || n < 0) {
            throw new InvalidReschedulerConfigException("policies.affinity.minGain must be a whole number, 0 or more"
                    + " (preferred node and pod affinity weights add up per node, as the scheduler scores them;"
                    + " 0: never move for them)");
        }
        return n;
    }

    private static boolean bool(Object value, String where) {
        if (!(value instanceof Boolean b)) {
            throw new InvalidReschedulerConfigException(where + " must be true or false");
        }
        return b;
    }

    private static int count(Map<String, Object> limits, String key, int fallback) {
        return count(limits, key, fallback, "limits.");
    }

    private static int count(Map<String, Object> doc, String key, int fallback, String where) {
        Object value = doc.getOrDefault(key, fallback);
        if (!(value instanceof Integer n) || n < 0) {
            throw new InvalidReschedulerConfigException(where + key + " must be a whole number, 0 or more");
        }
        return n;
    }
}
