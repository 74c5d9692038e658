package dev.makeroom.core.rounds;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * One mapping of the policies document (a policy's section, or the document's own {@code limits} and
 * {@code scope}), read with its checks: each value of the type asked or the fallback where absent, and
 * any that is not refused naming its key ({@link InvalidPolicySettingsException}). A policy's section also
 * says the document's {@link Aggressiveness} where it names one (it fills in thresholds a policy leaves
 * out), and the settings of the policies read before it (a policy whose limits depend on another's).
 */
public final class PolicySection {

    private final String where;
    private final Map<String, Object> doc;
    private final Aggressiveness level;
    private final Function<String, Duration> durations;
    private final Map<Class<?>, PolicySettings> before;

    /**
     * {@code value} at {@code where} (a dotted path, empty for the document itself), which must be a mapping whose keys are among
     * {@code keys} (null: any); {@code level} as the document names it, or null; {@code durations} reads
     * a duration's text (null when it is not one); {@code before}: the policies' settings read so far.
     */
    public PolicySection(String where, Object value, Set<String> keys, Aggressiveness level,
                         Function<String, Duration> durations, Map<Class<?>, PolicySettings> before) {
        this.where = where;
        this.doc = mapping(value, where, keys);
        this.level = level;
        this.durations = durations;
        this.before = Map.copyOf(before);
    }

    /** The section {@code key} inside this one, holding {@code keys}; empty where absent. */
    public PolicySection section(String key, Set<String> keys) {
        return new PolicySection(path(key), doc.getOrDefault(key, Map.of()), keys, level, durations, before);
    }

    /** The dotted path of {@code key} in the document, as messages name it. */
    public String path(String key) {
        return where.isEmpty() ? key : where + "." + key;
    }

    /** The document's aggressiveness, or null when it names none (then nothing is assumed). */
    public Aggressiveness level() {
        return level;
    }

    /** The settings of a policy read before this section's. */
    public <S extends PolicySettings> S before(Class<S> type) {
        PolicySettings settings = before.get(type);
        if (settings == null) {
            throw new IllegalStateException(type.getSimpleName() + " is not read before " + where);
        }
        return type.cast(settings);
    }

    /** The raw value of {@code key}, or {@code fallback}. */
    public Object value(String key, Object fallback) {
        return doc.getOrDefault(key, fallback);
    }

    /** A refusal naming {@code key}: "{@code policies.x.key} {@code problem}". */
    public InvalidPolicySettingsException invalid(String key, String problem) {
        return new InvalidPolicySettingsException(path(key) + " " + problem);
    }

    public boolean bool(String key, boolean fallback) {
        if (!(doc.getOrDefault(key, fallback) instanceof Boolean b)) {
            throw invalid(key, "must be true or false");
        }
        return b;
    }

    /** A whole number, 0 or more. */
    public int count(String key, int fallback) {
        if (!(doc.getOrDefault(key, fallback) instanceof Integer n) || n < 0) {
            throw invalid(key, "must be a whole number, 0 or more");
        }
        return n;
    }

    /** A duration such as {@code 30s} or {@code 2m}, 0 or more. */
    public Duration duration(String key, Duration fallback) {
        Object value = doc.get(key);
        if (value == null) {
            return fallback;
        }
        Duration parsed = value instanceof String text ? durations.apply(text) : null;
        if (parsed == null || parsed.isNegative()) {
            throw invalid(key, "must be a duration such as 30s or 2m");
        }
        return parsed;
    }

    /** As {@link #duration}, above 0. */
    public Duration positiveDuration(String key, Duration fallback) {
        Duration duration = duration(key, fallback);
        if (duration.isZero()) {
            throw invalid(key, "must be more than 0");
        }
        return duration;
    }

    /** A list of non-blank strings (namespaces, taint keys, scheduler names). */
    public List<String> names(String key, List<String> fallback) {
        return names(doc.getOrDefault(key, fallback), path(key));
    }

    /** Resource names to whole percents 0..100, each name one a node could have. */
    public Map<String, Integer> percents(String key, Map<String, ?> fallback) {
        String at = path(key);
        if (!(doc.getOrDefault(key, fallback) instanceof Map<?, ?> raw)) {
            throw new InvalidPolicySettingsException(at + " must map resources to percents");
        }
        Map<String, Integer> percents = new LinkedHashMap<>();
        raw.forEach((resource, percent) -> {
            if (!isResourceName(String.valueOf(resource))) {
                throw new InvalidPolicySettingsException(at + "." + resource + ": not a resource (cpu, memory,"
                        + " ephemeral-storage, pods, hugepages-<size>, or an extended resource such as nvidia.com/gpu)");
            }
            if (!(percent instanceof Integer p) || p < 0 || p > 100) {
                throw new InvalidPolicySettingsException(at + "." + resource + " must be a whole percent 0..100");
            }
            percents.put(String.valueOf(resource), p);
        });
        return percents;
    }

    /** {@code value} as a list of non-blank strings, else refused naming {@code where}. */
    public static List<String> names(Object value, String where) {
        if (!(value instanceof List<?> list) || !list.stream().allMatch(n -> n instanceof String s && !s.isBlank())) {
            throw new InvalidPolicySettingsException(where + " must be a list of names");
        }
        return list.stream().map(String.class::cast).toList();
    }

    /** {@code value} as a mapping with string keys, each among {@code allowed} (null: any key). */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> mapping(Object value, String where, Set<String> allowed) {
        if (!(value instanceof Map<?, ?> raw)) {
            throw new InvalidPolicySettingsException(where + " must be a mapping");
        }
        for (Object key : raw.keySet()) {
            if (!(key instanceof String k)) {
                throw new InvalidPolicySettingsException(where + ": key " + key + " must be a string");
            }
            if (allowed != null && !allowed.contains(k)) {
                throw new InvalidPolicySettingsException("unknown key " + key + " in " + where
                        + " (known: " + String.join(", ", allowed.stream().sorted().toList()) + ")");
            }
        }
        return (Map<String, Object>) raw;
    }

    /**
     * Whether a node could have this resource in its allocatable: the built-in names, hugepages of a size,
     * or an extended resource, which Kubernetes always names with a domain ({@code example.com/thing}).
     * A misspelt name would never be over a threshold, so a policy would silently do nothing.
     */
    public static boolean isResourceName(String name) {
        return switch (name) {
            case "cpu", "memory", "ephemeral-storage", "pods" -> true;
            default -> (name.startsWith("hugepages-") && name.length() > "hugepages-".length())
                    || name.matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?/[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
        };
    }
}
