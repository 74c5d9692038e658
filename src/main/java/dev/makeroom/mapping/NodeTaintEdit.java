package dev.makeroom.mapping;

import dev.makeroom.core.model.Taint;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSpec;
import io.fabric8.kubernetes.api.model.TaintBuilder;

import java.util.ArrayList;
import java.util.List;

/** A node's {@code spec.taints} with one taint added or one key's taints removed; every other taint kept as it was. */
public final class NodeTaintEdit {

    private NodeTaintEdit() {
    }

    /** The node with {@code taint} (replacing any of its key). */
    public static Node with(Node node, Taint taint) {
        List<io.fabric8.kubernetes.api.model.Taint> taints = others(node, taint.key());
        taints.add(new TaintBuilder().withKey(taint.key()).withValue(taint.value()).withEffect(taint.effect()).build());
        spec(node).setTaints(taints);
        return node;
    }

    /** The node without taints of {@code key}. */
    public static Node without(Node node, String key) {
        spec(node).setTaints(others(node, key));
        return node;
    }

    private static List<io.fabric8.kubernetes.api.model.Taint> others(Node node, String key) {
        List<io.fabric8.kubernetes.api.model.Taint> kept = new ArrayList<>();
        for (io.fabric8.kubernetes.api.model.Taint t : spec(node).getTaints() == null ? List.<io.fabric8.kubernetes.api.model.Taint>of()
                : spec(node).getTaints()) {
            if (t != null && !key.equals(t.getKey())) {
                kept.add(t);
            }
        }
        return kept;
    }

    private static NodeSpec spec(Node node) {
        if (node.getSpec() == null) {
            node.setSpec(new NodeSpec());
        }
        return node.getSpec();
    }
}
