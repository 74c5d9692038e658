package dev.makeroom.core.filter;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The filter answer: nodes that pass, in the order asked, and why each other node fails.
 * {@code unresolvable} nodes are ones preemption cannot help either.
 */
public record FilterVerdict(List<String> passed, Map<String, String> failed, Map<String, String> unresolvable) {
    /** Takes the lists as given: callers hand over fresh collections (no copy on the hot path). */
    public FilterVerdict {
        passed = Collections.unmodifiableList(passed);
        failed = failed.isEmpty() ? Map.of() : Collections.unmodifiableMap(failed); // empty: nothing made per call
        unresolvable = unresolvable.isEmpty() ? Map.of() : Collections.unmodifiableMap(unresolvable);
    }

    /** Every node asked passes, in the order asked: no rule of makeroom's concerns the pod, or the view is not ready. */
    public static FilterVerdict allPassed(List<String> names) {
        return new FilterVerdict(names, Map.of(), Map.of());
    }
}
