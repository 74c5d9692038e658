package dev.makeroom.observability;

import dev.makeroom.core.model.ClusterView;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.queue.Queue;
import dev.makeroom.core.queue.QueueDemand;
import dev.makeroom.core.queue.QueueTree;
import dev.makeroom.core.queue.QueueUsage;
import dev.makeroom.queueconfig.QueueConfigService;
import dev.makeroom.queueconfig.Queues;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * Queue gauges per queue and resource (usage, pending, preempting, guaranteed, max; cpu in cores,
 * memory and storage in bytes, the rest as counts, said by the {@code unit} label as kube-state-metrics
 * says it: core, byte, integer) and the count of rejected configurations. The gauges follow the tree in force: they
 * are re-registered whenever the configuration changes. Tags are queue and resource names, which
 * the configuration bounds.
 */
@Component
class QueueMetrics implements InitializingBean {

    private final MeterRegistry registry;
    private final QueueConfigService config;
    private final Queues queues;
    private final ClusterView view;
    private final List<Meter> queueMeters = new ArrayList<>();
    private QueueDemand demand;

    QueueMetrics(MeterRegistry registry, QueueConfigService config, Queues queues, ClusterView view) {
        this.registry = registry;
        this.config = config;
        this.queues = queues;
        this.view = view;
    }

    @Override
    public void afterPropertiesSet() {
        FunctionCounter.builder("makeroom.queue.config.reload.failures", config, QueueConfigService::reloadFailures)
                .description("Queue configurations from the ConfigMap rejected as invalid").register(registry);
        config.onChange(this::follow);
    }

    private synchronized void follow() {
        queueMeters.forEach(registry::remove);
        queueMeters.clear();
        QueueTree tree = config.tree();
        for (Queue q : tree.queues()) {
            TreeSet<String> resources = new TreeSet<>(q.guaranteed().keySet());
            resources.addAll(q.max().keySet());
            resources.add(Resources.CPU);
            resources.add(Resources.MEMORY);
            for (String r : resources) {
                gauge("makeroom.queue.usage", "What the queue's running pods request", q, r,
                        t -> inBaseUnits(r, usage(tree, q, r)));
                gauge("makeroom.queue.pending", "What the queue's pending pods request", q, r,
                        t -> inBaseUnits(r, demand(tree).pending(q, r)));
                gauge("makeroom.queue.preempting", "What the queue's pending pods that preemption nominated to a node request",
                        q, r, t -> inBaseUnits(r, demand(tree).preempting(q, r)));
                limit("makeroom.queue.guaranteed", "The queue's guaranteed amount", q, r, q.guaranteed());
                limit("makeroom.queue.max", "The queue's maximum", q, r, q.max());
            }
        }
    }

    private void limit(String name, String description, Queue q, String r, Map<String, Long> limits) {
        Long amount = limits.get(r);
        if (amount != null) {
            gauge(name, description, q, r, t -> inBaseUnits(r, amount));
        }
    }

    private void gauge(String name, String description, Queue q, String r, ToDoubleFunction<Queue> value) {
        queueMeters.add(Gauge.builder(name, q, value).description(description)
                .tag("queue", q.fullName()).tag("resource", r).tag("unit", unitOf(r)).register(registry));
    }

    /** The unit a resource's gauges are in, as a label, so cores and bytes are never summed unawares. */
    static String unitOf(String resource) { // as kube-state-metrics spells them, so the two can be joined
        if (Resources.CPU.equals(resource)) {
            return "core";
        }
        if (Resources.MEMORY.equals(resource) || "ephemeral-storage".equals(resource) || resource.startsWith("hugepages-")) {
            return "byte";
        }
        return "integer"; // the pod count and extended resources (GPUs and the like) are whole things
    }

    /** The pending pods' requests on the view as it is now, counted once per snapshot however many gauges read them. */
    private synchronized QueueDemand demand(QueueTree tree) {
        ClusterSnapshot snapshot = view.snapshot();
        if (demand == null || !demand.isFor(snapshot, tree)) {
            demand = QueueDemand.of(snapshot, tree);
        }
        return demand;
    }

    private double usage(QueueTree tree, Queue q, String r) {
        QueueUsage usage = queues.usage(view.snapshot());
        return usage == null || usage.tree() != tree ? Double.NaN : usage.of(q, r);
    }

    private static double inBaseUnits(String resource, double amount) {
        return Resources.CPU.equals(resource) ? amount / 1000 : amount;
    }
}
