package dev.makeroom.web;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.makeroom.core.model.PodInfo;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Pods already translated, by their exact JSON text. The scheduler sends the same pod to filter and
 * then to prioritize in one scheduling cycle, and again on every retry; reading it through fabric8's
 * model is most of what those calls cost makeroom, so each pod is read once. Same text, same pod:
 * except where its priority came from a PriorityClass of the snapshot (no {@code spec.priority}),
 * which a later snapshot may change; such translations are not kept.
 *
 * <p>The last pods translated are also found by their bytes ({@link #recent}), before any String is made
 * of them: a filter and a prioritize call then allocate nothing for their pod.
 */
final class TranslatedPods {

    /** A pod's bytes as they came, and the pod they translate to. */
    private record Recent(int hash, byte[] bytes, PodInfo pod) {
    }

    private static final int RECENT = 16; // a power of two: slots by the low bits of the bytes' hash
    // each slot is an immutable record: a racing reader sees a whole one or the one before
    private final Recent[] recent = new Recent[RECENT];

    /** Enough for the scheduler's cycles in flight and a burst of retries; a miss only costs a translation. */
    private static final int KEPT = 256;

    private final Cache<String, PodInfo> kept = Caffeine.newBuilder().maximumSize(KEPT).build();

    /** The pod of these bytes when they were translated lately and kept, else null. */
    PodInfo recent(byte[] source, int from, int to) {
        int hash = hash(source, from, to);
        Recent slot = recent[hash & (RECENT - 1)];
        return slot != null && slot.hash() == hash && Arrays.equals(slot.bytes(), 0, slot.bytes().length, source, from, to)
                ? slot.pod() : null;
    }

    /**
     * The pod of these bytes, not found by {@link #recent} (the caller asked first): translated or kept as
     * {@link #of(String, Function, BiFunction)} says, and found by its bytes next time.
     */
    PodInfo of(byte[] source, int from, int to, Function<String, Integer> classValues,
               BiFunction<String, Function<String, Integer>, PodInfo> translate) {
        String json = new String(source, from, to - from, StandardCharsets.UTF_8);
        PodInfo pod = of(json, classValues, translate);
        if (kept.getIfPresent(json) == pod) { // kept: its priority does not depend on the snapshot
            int hash = hash(source, from, to);
            recent[hash & (RECENT - 1)] = new Recent(hash, Arrays.copyOfRange(source, from, to), pod);
        }
        return pod;
    }

    private static int hash(byte[] source, int from, int to) {
        int hash = 1;
        for (int i = from; i < to; i++) {
            hash = 31 * hash + source[i];
        }
        return hash ^ hash >>> 16;
    }

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
