package dev.makeroom.bench;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Filter bodies of full Node objects as a scheduler that does not cache nodes sends them, one
 * scheduling cycle after another: each asks for another pod, and between two of them 1% of the
 * nodes have changed (a new resourceVersion and heartbeat), as kubelets and controllers update
 * them. Sent in turn, body {@code i} follows body {@code i - 1}.
 *
 * <p>1% of 5,000 nodes between two cycles is many: kubelets that report through leases rewrite
 * their Node every five minutes unless something changed, some 17 nodes a second at 5,000, while
 * a busy scheduler runs tens of cycles a second.
 */
public final class NodeObjectBodies {

    /** Bodies in a cycle: body v changes the nodes whose index is v modulo {@link #STRIDE}. */
    private static final int VARIANTS = 8;
    // consecutive bodies differ in the nodes variant v changed and those v + 1 changes: 2 in STRIDE
    private static final int STRIDE = 200;

    private NodeObjectBodies() {
    }

    /** {@link #VARIANTS} bodies asking about pods {@code podJson.apply(v)} with {@code nodeNames}' nodes, in their order. */
    public static List<byte[]> cycles(IntFunction<String> podJson, List<String> nodeNames) {
        KubernetesSerialization k8s = new KubernetesSerialization();
        List<String> unchanged = new ArrayList<>(nodeNames.size());
        for (int i = 0; i < nodeNames.size(); i++) {
            unchanged.add(k8s.asJson(SyntheticObjects.node(nodeNames.get(i), 10 + i)));
        }
        List<byte[]> bodies = new ArrayList<>();
        for (int v = 0; v < VARIANTS; v++) {
            StringBuilder body = new StringBuilder("{\"Pod\":").append(podJson.apply(v))
                    .append(",\"Nodes\":{\"metadata\":{},\"items\":[");
            for (int i = 0; i < nodeNames.size(); i++) {
                body.append(i == 0 ? "" : ",").append(i % STRIDE != v ? unchanged.get(i)
                        : k8s.asJson(SyntheticObjects.node(nodeNames.get(i), 1_000_000 + i, "2026-11-22T00:0" + v + ":00Z")));
            }
            bodies.add(body.append("]},\"NodeNames\":null}").toString().getBytes(StandardCharsets.UTF_8));
        }
        return bodies;
    }
}
