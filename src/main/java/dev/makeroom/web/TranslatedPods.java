package dev.makeroom.web;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.makeroom.core.model.PodInfo;

import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Pods already translated, by their exact JSON text. The scheduler sends the same pod to filter and
 * then to prioritize in one scheduling cycle, and again on every retry; reading it through fabric8's
 * model is most of what those calls cost makeroom, so each pod is read once. Same text, same pod:
 * except where its priority came from a PriorityClass of the snapshot (no {@code spec.priority}),
 * which a later snapshot may change; such translations are not kept.
 */
final class TranslatedPods {

    /** Enough for the scheduler's cycles in flight and a burst of retries; a miss only costs a translation. */
    private static final int KEPT = 256;

    private final Cache<String, PodInfo> kept = Caffeine.newBuilder().maximumSize(KEPT).build();

    /**
     * The pod of {@code json}, kept or translated by {@code translate} (given the PriorityClass lookup to
     * use; what it throws is thrown, and nothing is kept).
     */
    PodInfo of(String json, Function<String, Integer> classValues,
               BiFunction<String, Function<String, Integer>, PodInfo> translate) {
        PodInfo known = kept.getIfPresent(json);
        if (known != null) {
            return known;
        }
        boolean[] lookedUp = new boolean[1];
        PodInfo pod = translate.apply(json, name -> {
            lookedUp[0] = true;
            return classValues.apply(name);
        });
        if (!lookedUp[0]) {
            kept.put(json, pod);
        }
        return pod;
    }
}
