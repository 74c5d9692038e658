package dev.makeroom.core.filter;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The filter answer: nodes that pass, in the order asked, and why each other node fails.
 * {@code unresolvable} nodes are ones preemption cannot help either.
 */
public record FilterVerdict(List<String> passed, Map<String, String> failed, Map<String, String> unresolvable) {
    public FilterVerdict {
        passed = List.copyOf(passed);
        failed = Collections.unmodifiableMap(new LinkedHashMap<>(failed));
        unresolvable = Collections.unmodifiableMap(new LinkedHashMap<>(unresolvable));
    }
}
