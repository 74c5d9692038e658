package dev.makeroom.core.filter;

import dev.makeroom.core.accounting.FitCheck;
import dev.makeroom.core.accounting.NodeUsage;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Passes the nodes whose free allocatable holds the pod's requests. A node that fails stays a
 * preemption candidate ({@code FailedNodes}); the reason uses the kube-scheduler's words.
 */
public final class FilterPolicy {

    public static final String UNKNOWN_NODE = "unknown node";

    public FilterVerdict filter(ClusterSnapshot snapshot, PodInfo pod, List<String> nodeNames) {
        List<String> passed = new ArrayList<>(nodeNames.size());
        Map<String, String> failed = new LinkedHashMap<>();
        String home = NodeUsage.homeOf(snapshot, pod);
        for (String name : nodeNames) {
            NodeInfo node = snapshot.node(name);
            if (node == null) {
                failed.put(name, UNKNOWN_NODE);
                continue;
            }
            Resources requested = NodeUsage.requestedFor(node, pod, home);
            if (FitCheck.fits(node.allocatable(), requested, pod.requests())) {
                passed.add(name);
            } else {
                failed.put(name, describe(FitCheck.shortfalls(node.allocatable(), requested, pod.requests())));
            }
        }
        return new FilterVerdict(passed, failed, Map.of());
    }

    /** The kube-scheduler's wording; the common single-resource reasons are built once and shared. */
    static String describe(List<String> shortfalls) {
        if (shortfalls.size() == 1) {
            return REASONS.computeIfAbsent(shortfalls.get(0), FilterPolicy::reason);
        }
        List<String> parts = new ArrayList<>();
        for (String resource : shortfalls) {
            parts.add(reason(resource));
        }
        return String.join(", ", parts);
    }

    private static String reason(String resource) {
        return Resources.PODS.equals(resource) ? "Too many pods" : "Insufficient " + resource;
    }

    private static final Map<String, String> REASONS = new ConcurrentHashMap<>();
}
