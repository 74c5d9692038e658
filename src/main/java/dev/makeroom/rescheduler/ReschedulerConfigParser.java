package dev.makeroom.rescheduler;

import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.rounds.Aggressiveness;
import dev.makeroom.core.rounds.InvalidPolicySettingsException;
import dev.makeroom.core.rounds.PolicyReader;
import dev.makeroom.core.rounds.PolicySection;
import dev.makeroom.core.rounds.PolicySettings;
import dev.makeroom.core.rounds.RescheduleSettings;
import dev.makeroom.core.rounds.Scope;
import dev.makeroom.core.rounds.planner.ReschedulePlanner;
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
import java.util.TreeSet;

/**
 * Reads the rescheduler document ({@code rescheduler.yaml}); the README's "Rescheduler" section shows
 * it. Strict: an unknown key, a threshold of a name no node has as a resource, or outside 0..100, a
 * {@code low} not below its {@code high}, a negative limit or a duration that is not one rejects the
 * whole document, naming the key. Reads the guards every policy keeps (limits, scope, aggressiveness,
 * local storage, the refusal backoff) itself and hands each policy its own section under
 * {@code policies} ({@link PolicySection}), in the order the planner registers them: it knows no
 * policy's fields, defaults or checks. {@code aggressiveness} (gentle, moderate, aggressive) is handed
 * on with each section (it fills in thresholds a policy leaves out) and sets how much of each disruption
 * budget the rounds may spend; without it, budgets may be spent whole and nothing else is assumed.
 */
public final class ReschedulerConfigParser {

    private static final Set<String> TOP = Set.of("apiVersion", "kind", "aggressiveness", "policies", "limits",
            "allowLocalStorage", "refusalBackoffMax", "scope");

    /** The versioned form's header, as Kubernetes-style documents (a DeschedulerPolicy) carry one; optional. */
    public static final String API_VERSION = "makeroom.dev/v1";
    public static final String KIND = "ReschedulerPolicy";
    private static final Set<String> SCOPE = Set.of("namespaces", "podSelector", "nodeSelector", "priorityThreshold",
            "minPodAge", "minReplicas");
    private static final Set<String> NAMESPACES = Set.of("include", "exclude");
    private static final Set<String> SELECTOR = Set.of("matchLabels", "matchExpressions");
    private static final Set<String> EXPRESSION = Set.of("key", "operator", "values");
    private static final Set<String> LIMITS = Set.of("perRound", "perNodePerRound", "perNamespacePerHour",
            "perControllerPerHour", "clusterPerHour");
    private static final RescheduleSettings.MoveLimits DEFAULT_LIMITS = new RescheduleSettings.MoveLimits(10, 2, 20, 1, 50);

    /** What an absent or empty document means: defragmentation on, the other policies off, modest limits. */
    public static final RescheduleSettings DEFAULTS = parse("");

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
        try {
            return read(doc == null ? Map.of() : doc);
        } catch (InvalidPolicySettingsException e) {
            throw new InvalidReschedulerConfigException(e.getMessage());
        }
    }

    private static RescheduleSettings read(Object doc) {
        Map<String, Object> checked = PolicySection.mapping(doc, "the document", TOP);
        checkHeader(checked);
        Aggressiveness level = aggressiveness(checked.get("aggressiveness"));
        PolicySection top = new PolicySection("", checked, null, level, GoDuration::parse, Map.of());
        List<PolicyReader<?>> registered = ReschedulePlanner.policies();
        Set<String> sections = new TreeSet<>();
        registered.forEach(p -> sections.add(p.section()));
        PolicySection policies = top.section("policies", sections);
        Map<Class<?>, PolicySettings> read = new LinkedHashMap<>();
        for (PolicyReader<?> policy : registered) {
            PolicySection section = new PolicySection(policies.path(policy.section()),
                    policies.value(policy.section(), Map.of()), policy.keys(), level, GoDuration::parse, read);
            read.put(policy.settingsType(), policy.read(section));
        }
        PolicySection limits = top.section("limits", LIMITS);
        RescheduleSettings.MoveLimits d = DEFAULT_LIMITS;
        return new RescheduleSettings(
                new RescheduleSettings.MoveLimits(limits.count("perRound", d.perRound()),
                        limits.count("perNodePerRound", d.perNodePerRound()),
                        limits.count("perNamespacePerHour", d.perNamespacePerHour()),
                        limits.count("perControllerPerHour", d.perControllerPerHour()),
                        limits.count("clusterPerHour", d.clusterPerHour())),
                level == null ? Aggressiveness.MODERATE : level,
                scope(top.section("scope", SCOPE)),
                top.bool("allowLocalStorage", false),
                top.positiveDuration("refusalBackoffMax", RescheduleSettings.REFUSAL_BACKOFF_MAX),
                read);
    }

    private static Scope scope(PolicySection doc) {
        PolicySection namespaces = doc.section("namespaces", NAMESPACES);
        Object threshold = doc.value("priorityThreshold", null);
        if (threshold != null && !(threshold instanceof Integer)) {
            throw new InvalidReschedulerConfigException("scope.priorityThreshold must be a whole number (a priority:"
                    + " pods at or above it never move)");
        }
        int minReplicas = doc.count("minReplicas", 0);
        return new Scope(Set.copyOf(namespaces.names("include", List.of())),
                Set.copyOf(namespaces.names("exclude", List.of())),
                selector(doc.value("podSelector", Map.of()), "scope.podSelector"),
                selector(doc.value("nodeSelector", Map.of()), "scope.nodeSelector"),
                (Integer) threshold, doc.duration("minPodAge", Duration.ZERO), minReplicas);
    }

    /** A label selector as Kubernetes writes one: matchLabels, and matchExpressions of In, NotIn, Exists, DoesNotExist. */
    private static LabelSelector selector(Object value, String where) {
        Map<String, Object> doc = PolicySection.mapping(value, where, SELECTOR);
        Map<String, String> labels = new LinkedHashMap<>();
        PolicySection.mapping(doc.getOrDefault("matchLabels", Map.of()), where + ".matchLabels", null).forEach((k, v) -> {
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
            Map<String, Object> e = PolicySection.mapping(list.get(i), at, EXPRESSION);
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
            List<String> values = PolicySection.names(e.getOrDefault("values", List.of()), at + ".values");
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
}
