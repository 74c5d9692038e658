package dev.makeroom.queueconfig;

import dev.makeroom.mapping.Quantities;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.queue.InvalidQueueConfigException;
import dev.makeroom.core.queue.Queue;
import dev.makeroom.core.queue.QueuePolicy;
import dev.makeroom.core.queue.QueueSpec;
import dev.makeroom.core.queue.QueueTree;
import io.fabric8.kubernetes.api.model.Quantity;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Reads the queue document (README, Queues) into a {@link QueueTree}. Strict about shape, so a typo
 * ({@code guaranted:}) rejects the document instead of silently dropping a guarantee; queue
 * {@code properties} other than makeroom's are ignored, as YuniKorn has more of them. The one
 * forgiving rule is YuniKorn's: an unparsable {@code preemption.delay} becomes 30s, with a warning.
 */
public final class QueueConfigParser {

    static final String POLICY = "preemption.policy";
    static final String DELAY = "preemption.delay";
    private static final Set<String> TOP_KEYS = Set.of("defaultQueue", "queues", "partitions");
    // YuniKorn's queue fields makeroom does not use are accepted as they are (ACLs, application limits)
    private static final Set<String> QUEUE_KEYS = Set.of("name", "queues", "resources", "properties", "parent",
            "submitacl", "adminacl", "maxapplications", "limits", "childtemplate");
    private static final Set<String> PARTITION_KEYS = Set.of("name", "queues", "placementrules", "limits",
            "nodesortpolicy", "preemption", "statedumpfilepath", "usergroupresolver");
    /** The partition makeroom reads in a YuniKorn document: YuniKorn's Kubernetes shim schedules into it. */
    static final String PARTITION = "default";
    private static final Set<String> RESOURCE_KEYS = Set.of("guaranteed", "max");
    private static final int MAX_DEPTH = 32;

    private QueueConfigParser() {
    }

    /**
     * Parses the document; throws {@link InvalidQueueConfigException} naming the first problem.
     * Warnings (forgiven mistakes) go to {@code warnings}. An empty document means no queues.
     */
    public static QueueTree parse(String yaml, Consumer<String> warnings) {
        Object doc;
        try {
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(false);
            options.setMaxAliasesForCollections(10);
            options.setNestingDepthLimit(100);
            options.setCodePointLimit(1 << 20);
            doc = new Yaml(new SafeConstructor(options)).load(yaml);
        } catch (YAMLException e) {
            throw new InvalidQueueConfigException("not valid YAML: " + firstLine(e.getMessage()));
        }
        if (doc == null) {
            return QueueTree.OFF;
        }
        Map<String, Object> top = map(doc, "the document");
        onlyKeys(top, TOP_KEYS, "the document");
        List<Object> queues = top.containsKey("partitions") ? partitionQueues(top) : list(top.get("queues"), "queues");
        if (queues.size() != 1) {
            throw new InvalidQueueConfigException("queues must hold exactly one queue, root (found " + queues.size() + ")");
        }
        QueueSpec root = queue(queues.get(0), "", 0, warnings);
        Object defaultQueue = top.get("defaultQueue");
        if (defaultQueue != null && !(defaultQueue instanceof String)) {
            throw new InvalidQueueConfigException("defaultQueue must be a queue name");
        }
        return QueueTree.of(root, (String) defaultQueue);
    }

    /** The queues of the partition {@code default} of a document in YuniKorn's shape ({@code partitions:}). */
    private static List<Object> partitionQueues(Map<String, Object> top) {
        if (top.containsKey("queues")) {
            throw new InvalidQueueConfigException("the document has both partitions and queues; put the queues in the"
                    + " partition " + PARTITION);
        }
        List<String> names = new ArrayList<>();
        for (Object node : list(top.get("partitions"), "partitions")) {
            Map<String, Object> partition = map(node, "a partition");
            String name = String.valueOf(partition.get("name"));
            onlyKeys(partition, PARTITION_KEYS, "partition " + name);
            if (PARTITION.equals(name)) {
                return list(partition.get("queues"), "partition " + PARTITION + " queues");
            }
            names.add(name);
        }
        throw new InvalidQueueConfigException("makeroom reads the partition named " + PARTITION + " (YuniKorn's for"
                + " Kubernetes); the document has " + (names.isEmpty() ? "none" : String.join(", ", names)));
    }

    private static QueueSpec queue(Object node, String parent, int depth, Consumer<String> warnings) {
        if (depth > MAX_DEPTH) {
            throw new InvalidQueueConfigException("queues nest deeper than " + MAX_DEPTH + " levels under " + parent);
        }
        String where = parent.isEmpty() ? "the top queue" : "a queue under " + parent;
        Map<String, Object> q = map(node, where);
        Object rawName = q.get("name");
        if (!(rawName instanceof String name) || name.isBlank()) {
            throw new InvalidQueueConfigException(where + " has no name");
        }
        String full = parent.isEmpty() ? name : parent + "." + name;
        onlyKeys(q, QUEUE_KEYS, full);
        Map<String, Object> resources = q.get("resources") == null ? Map.of() : map(q.get("resources"), full + ".resources");
        onlyKeys(resources, RESOURCE_KEYS, full + ".resources");
        Map<String, Object> properties = q.get("properties") == null ? Map.of() : map(q.get("properties"), full + ".properties");
        List<QueueSpec> children = new ArrayList<>();
        if (q.get("queues") != null) {
            for (Object child : list(q.get("queues"), full + ".queues")) {
                children.add(queue(child, full, depth + 1, warnings));
            }
        }
        return new QueueSpec(name, amounts(resources.get("guaranteed"), full + " guaranteed", warnings),
                amounts(resources.get("max"), full + " max", warnings), policy(properties.get(POLICY), full),
                delay(properties.get(DELAY), full, warnings), children);
    }

    /**
     * Amounts by resource, in makeroom's units (cpu in millicores). YuniKorn's {@code vcore} is cpu
     * given in millicores ({@code vcore: 1500} is 1.5 cpus); {@code memory} is bytes unless it has a
     * suffix. A resource no pod can request (not a Kubernetes resource, nor an extended one named
     * {@code domain/name}) is reported: a typo there would otherwise limit nothing, silently.
     */
    private static Map<String, Long> amounts(Object node, String where, Consumer<String> warnings) {
        if (node == null) {
            return Map.of();
        }
        Map<String, Long> out = new LinkedHashMap<>();
        map(node, where).forEach((resource, value) -> {
            if (value == null || value instanceof Map || value instanceof List || value instanceof Boolean) {
                throw new InvalidQueueConfigException(where + " " + resource + " must be a quantity such as 4, 500m or 8Gi");
            }
            try {
                if (VCORE.equals(resource)) {
                    out.merge(Resources.CPU, vcoreMillis(value, where), (a, b) -> {
                        throw new InvalidQueueConfigException(where + " names cpu twice (cpu and vcore)");
                    });
                    return;
                }
                if (out.putIfAbsent(resource, Quantities.toLong(resource, new Quantity(String.valueOf(value)))) != null) {
                    throw new InvalidQueueConfigException(where + " names cpu twice (cpu and vcore)");
                }
            } catch (IllegalArgumentException | ArithmeticException e) {
                throw new InvalidQueueConfigException(where + " " + resource + ": '" + value + "' is not a quantity");
            }
            if (!requestable(resource)) {
                warnings.accept(where + ": no pod can request '" + resource + "' (Kubernetes names cpu, memory,"
                        + " ephemeral-storage, hugepages-<size>, or an extended resource as domain/name); it limits nothing");
            }
        });
        return out;
    }

    static final String VCORE = "vcore";

    private static long vcoreMillis(Object value, String where) {
        BigDecimal millis = new Quantity(String.valueOf(value)).getNumericalAmount();
        if (millis.signum() < 0 || millis.stripTrailingZeros().scale() > 0) {
            throw new InvalidQueueConfigException(where + " vcore: '" + value + "' must be whole millicores, e.g. 1500");
        }
        return millis.longValueExact();
    }

    private static boolean requestable(String resource) {
        return resource.equals(Resources.CPU) || resource.equals(Resources.MEMORY) || resource.equals(Resources.PODS)
                || resource.equals("ephemeral-storage") || resource.startsWith("hugepages-") || resource.contains("/");
    }

    private static QueuePolicy policy(Object value, String where) {
        if (value == null) {
            return QueuePolicy.DEFAULT;
        }
        try {
            return QueuePolicy.valueOf(String.valueOf(value).trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidQueueConfigException(where + ": " + POLICY + " '" + value
                    + "' is not one of default, fence, disabled");
        }
    }

    private static Duration delay(Object value, String where, Consumer<String> warnings) {
        if (value == null) {
            return null;
        }
        Duration d = GoDuration.parse(String.valueOf(value));
        if (d == null) {
            warnings.accept(where + ": " + DELAY + " '" + value + "' is not a duration; using "
                    + Queue.DEFAULT_DELAY.toSeconds() + "s");
            return Queue.DEFAULT_DELAY;
        }
        return d;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object node, String where) {
        if (!(node instanceof Map<?, ?> m)) {
            throw new InvalidQueueConfigException(where + " must be a mapping");
        }
        for (Object key : m.keySet()) {
            if (!(key instanceof String)) {
                throw new InvalidQueueConfigException(where + " has a key that is not a string: " + key);
            }
        }
        return (Map<String, Object>) m;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object node, String where) {
        if (!(node instanceof List<?>)) {
            throw new InvalidQueueConfigException(where + " must be a list of queues");
        }
        return (List<Object>) node;
    }

    private static void onlyKeys(Map<String, Object> map, Set<String> allowed, String where) {
        for (String key : map.keySet()) {
            if (!allowed.contains(key)) {
                throw new InvalidQueueConfigException(where + ": unknown field '" + key + "' (expected one of "
                        + String.join(", ", allowed.stream().sorted().toList()) + ")");
            }
        }
    }

    private static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("");
    }
}
