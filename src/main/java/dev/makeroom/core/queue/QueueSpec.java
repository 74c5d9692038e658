package dev.makeroom.core.queue;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One queue as configured, before it is placed in a tree: its short name, limits, policy and
 * children. Limits are in makeroom's base units (see {@code Resources}); a listed 0 is a limit, an
 * absent resource is not. {@code delay} is null when not set (leaves then get {@link Queue#DEFAULT_DELAY}).
 */
public record QueueSpec(String name, Map<String, Long> guaranteed, Map<String, Long> max, QueuePolicy policy,
                        Duration delay, List<QueueSpec> children) {

    public QueueSpec {
        guaranteed = guaranteed == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(guaranteed));
        max = max == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(max));
        policy = policy == null ? QueuePolicy.DEFAULT : policy;
        children = children == null ? List.of() : List.copyOf(children);
    }

    public static QueueSpec leaf(String name, Map<String, Long> guaranteed) {
        return new QueueSpec(name, guaranteed, null, null, null, List.of());
    }

    public static QueueSpec parent(String name, QueueSpec... children) {
        return new QueueSpec(name, null, null, null, null, List.of(children));
    }

    public QueueSpec withMax(Map<String, Long> newMax) {
        return new QueueSpec(name, guaranteed, newMax, policy, delay, children);
    }

    public QueueSpec withPolicy(QueuePolicy newPolicy) {
        return new QueueSpec(name, guaranteed, max, newPolicy, delay, children);
    }

    public QueueSpec withDelay(Duration newDelay) {
        return new QueueSpec(name, guaranteed, max, policy, newDelay, children);
    }
}
