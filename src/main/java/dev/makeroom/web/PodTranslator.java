package dev.makeroom.web;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.mapping.LeanReading;
import dev.makeroom.mapping.NullListElements;
import dev.makeroom.mapping.PodMapper;
import dev.makeroom.mapping.ReadFailures;
import dev.makeroom.mapping.UnreadableQuantity;
import dev.makeroom.observability.ExtenderMetrics;
import dev.makeroom.web.json.BadRequestException;
import dev.makeroom.web.json.PodIdentity;
import dev.makeroom.web.json.RawJson;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Turns the request's {@code Pod} into a core pod, through fabric8's model like every other Kubernetes object,
 * once per pod ({@link TranslatedPods}); a pod the view holds at the same version is the view's own.
 */
@Component
public class PodTranslator {

    private final KubernetesSerialization serialization = LeanReading.serialization(); // reads what PodMapper maps
    private final JsonMapper tree = JsonMapper.builder().build();
    private final TranslatedPods translated = new TranslatedPods();

    /** Where a request's pod came from: its bytes seen lately, the view's own, a text kept, or fabric8's reading. */
    public enum Source { RECENT, VIEW, KEPT, TRANSLATED }

    // counted without allocating (every filter and prioritize call reads a pod); KEPT is the rest
    private final LongAdder recentReads = new LongAdder();
    private final LongAdder viewReads = new LongAdder();
    private final LongAdder keptOrTranslated = new LongAdder();
    private final LongAdder translations = new LongAdder();

    /** Alone (tests, benchmarks): counted, not exposed. */
    public PodTranslator() {
    }

    /** As the application runs it: the counts exposed as {@code makeroom_extender_pod_reads_total{source}}. */
    @Autowired
    PodTranslator(ExtenderMetrics metrics) {
        Map<String, ToLongFunction<PodTranslator>> reads = new LinkedHashMap<>();
        for (Source source : Source.values()) {
            reads.put(source.name().toLowerCase(Locale.ROOT), translator -> translator.reads(source));
        }
        metrics.podReads(this, reads);
    }

    /** How many pods were read from {@code source} so far: where a call's time goes (a translation is most of it). */
    public long reads(Source source) {
        return switch (source) {
            case RECENT -> recentReads.sum();
            case VIEW -> viewReads.sum();
            case TRANSLATED -> translations.sum();
            case KEPT -> Math.max(0, keptOrTranslated.sum() - translations.sum());
        };
    }

    public PodInfo toCore(RawJson podJson, ClusterSnapshot snapshot) {
        if (podJson == null) {
            throw new BadRequestException("missing Pod");
        }
        if (!podJson.isObject()) {
            throw new BadRequestException("Pod must be a JSON object");
        }
        PodInfo recent = translated.recent(podJson.source(), podJson.from(), podJson.to());
        if (recent != null) {
            recentReads.increment();
            return recent;
        }
        PodInfo seen = seenByTheView(podJson, snapshot);
        if (seen != null) {
            viewReads.increment();
            return seen;
        }
        keptOrTranslated.increment();
        return translated.of(podJson.source(), podJson.from(), podJson.to(), snapshot::priorityValue, (text, classes) -> {
            translations.increment();
            return toCore(text, classes);
        });
    }

    /**
     * The snapshot's own pod when the body's pod is that pod at the version the view has: the scheduler
     * asks about a pod whose creation makeroom watched moments before, and translating its 2 KB through
     * fabric8's model was most of a filter call's time while pods bound (each pod new to the cache).
     */
    private static PodInfo seenByTheView(RawJson podJson, ClusterSnapshot snapshot) {
        PodIdentity identity = PodIdentity.of(podJson.source(), podJson.from(), podJson.to());
        if (identity == null || identity.resourceVersion() <= 0) {
            return null;
        }
        PodInfo known = snapshot.pod(identity.uid());
        return known != null && known.resourceVersion() == identity.resourceVersion() ? known : null;
    }

    private PodInfo toCore(String podJson, Function<String, Integer> classValues) {
        // a body without the word null has no null element: the common pod is parsed once, not twice
        String nullElement = podJson.contains("null") ? NullListElements.find(tree.readValue(podJson, Map.class), "Pod") : null;
        if (nullElement != null) {
            throw new BadRequestException(nullElement + " is null: a Kubernetes list holds no null elements");
        }
        Pod pod;
        try {
            pod = serialization.unmarshal(podJson, Pod.class);
        } catch (RuntimeException e) {
            throw new BadRequestException(ReadFailures.path(e, "Pod") + " is not valid in a v1.Pod: " + ReadFailures.rootMessage(e));
        }
        if (pod.getMetadata() == null || pod.getMetadata().getName() == null || pod.getMetadata().getName().isBlank()) {
            throw new BadRequestException("Pod.metadata.name is missing");
        }
        PodInfo core;
        try {
            core = PodMapper.toCore(pod, classValues);
        } catch (ArithmeticException | IllegalArgumentException e) {
            throw new BadRequestException(UnreadableQuantity.in(pod, "Pod")
                    .orElseGet(() -> "Pod cannot be read: " + ReadFailures.rootMessage(e)));
        }
        for (int i = 0; i < core.requests().size(); i++) {
            if (core.requests().value(i) < 0) {
                throw new BadRequestException("Pod requests a negative amount of " + core.requests().name(i));
            }
        }
        return core;
    }
}
