package dev.makeroom.core.model;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Kubernetes minor version whose kube-scheduler makeroom answers, and the rules that differ by it
 * (docs/kubernetes-versions.md has the table, with where each was read in the scheduler's sources).
 * Rules that an API server enforces by dropping fields its version does not serve (sidecars, pod-level
 * resources, in-place resize, {@code matchLabelKeys}) need no entry: objects of an older cluster
 * simply do not carry them.
 */
public record KubeVersion(int major, int minor) implements Comparable<KubeVersion> {

    /** The oldest and the newest versions makeroom was run against on a real control plane. */
    public static final KubeVersion OLDEST_TESTED = new KubeVersion(1, 26);
    public static final KubeVersion NEWEST_TESTED = new KubeVersion(1, 36);

    private static final Pattern FORM = Pattern.compile("v?(\\d+)\\.(\\d+)(?:[.+\\-].*)?");

    public KubeVersion {
        if (major < 1 || minor < 0) {
            throw new IllegalArgumentException("not a Kubernetes version: " + major + "." + minor);
        }
    }

    /**
     * Reads {@code v1.36.3}, {@code 1.36}, {@code v1.32.13+k3s1} and the like (major and minor only);
     * the API server's {@code /version} may also give a minor such as {@code 36+}, which is read as 36.
     */
    public static KubeVersion parse(String text) {
        Matcher m = FORM.matcher(text == null ? "" : text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a Kubernetes version (expected e.g. 1.36 or v1.36.3): " + text);
        }
        return new KubeVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }

    /** From {@code /version}'s major and minor fields ({@code "1"}, {@code "36+"}). */
    public static KubeVersion of(String major, String minor) {
        return parse(major + "." + (minor == null ? "" : minor.replaceAll("\\D+$", "")));
    }

    public boolean atLeast(int major, int minor) {
        return compareTo(new KubeVersion(major, minor)) >= 0;
    }

    /**
     * 1.34 and later: NodeResourcesFit answers UnschedulableAndUnresolvable where the pod asks more of
     * a resource than the node has at all, so such a node is no preemption candidate.
     */
    public boolean requestAboveAllocatableIsUnresolvable() {
        return atLeast(1, 34);
    }

    /**
     * 1.30 and later: with {@code nodeCacheCapable: false}, the Node objects an extender's filter hands
     * back become node infos without pods, and the scheduler scores those nodes as if they were empty.
     */
    public boolean scoresReturnedNodeObjectsAsEmpty() {
        return atLeast(1, 30);
    }

    @Override
    public int compareTo(KubeVersion o) {
        return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
    }

    @Override
    public String toString() {
        return major + "." + minor;
    }
}
