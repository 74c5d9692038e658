package dev.makeroom.why;

import dev.makeroom.cluster.ApiSnapshot;
import dev.makeroom.cluster.SnapshotFileClusterView;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.KubeVersion;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.placement.PlacementSurvey;
import dev.makeroom.core.placement.PodPlacement;
import dev.makeroom.core.placement.SnapshotState;
import dev.makeroom.core.preemption.AnswerMode;
import dev.makeroom.core.preemption.Candidate;
import dev.makeroom.core.preemption.NodeVerdict;
import dev.makeroom.core.preemption.PreemptionDecision;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.core.preemption.PreemptionSettings;
import dev.makeroom.core.preemption.QueueRules;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * {@code java -jar makeroom.jar --why=namespace/name [--dump=cluster.yaml]}: loads a dump ({@code kubectl
 * get nodes,pods,pdb,priorityclasses -A -o yaml}), or without one lists the cluster once from the API
 * (kubeconfig or in-cluster: {@link ApiSnapshot}), tells where the scheduler could place the named
 * pod (every filter of the placement engine, over every node) and, when nowhere, what makeroom's preempt
 * would decide over the nodes the scheduler would offer it (default settings, no queues); prints the
 * decision with its reasons, node by node, and exits: 0 when the pod would be placed or preempt, 1 when
 * nothing works, 2 when the question cannot be asked (no such pod, no such file, the API does not answer).
 */
public final class WhyCommand {

    private WhyCommand() {
    }

    /** Whether the arguments ask this command rather than the server. */
    public static boolean asked(String[] args) {
        return List.of(args).stream().anyMatch(a -> a.startsWith("--why="));
    }

    public static int run(String[] args, PrintStream out) {
        return run(args, out, ApiSnapshot::client);
    }

    /** As above; without {@code --dump}, the cluster is read from the API through a client of {@code clients}. */
    static int run(String[] args, PrintStream out, Supplier<KubernetesClient> clients) {
        String pod = argument(args, "--why=");
        String dump = argument(args, "--dump=");
        KubeVersion version;
        try {
            String asked = argument(args, "--kubernetes-version=");
            version = asked == null ? null : KubeVersion.parse(asked);
        } catch (IllegalArgumentException e) {
            out.println("--kubernetes-version: " + e.getMessage());
            return 2;
        }
        if (pod == null || !pod.contains("/")) {
            out.println("usage: --why=namespace/name [--dump=<file of Kubernetes objects, YAML or JSON>]"
                    + " [--kubernetes-version=1.36]"
                    + " (without --dump, the cluster of the current kubeconfig context, or in-cluster;"
                    + " the version defaults to the API server's, or for a dump to the newest makeroom was tested on)");
            return 2;
        }
        ClusterSnapshot snapshot;
        String source;
        if (dump != null) {
            if (!Files.isReadable(Path.of(dump))) {
                out.println("cannot read " + dump);
                return 2;
            }
            snapshot = new SnapshotFileClusterView(Path.of(dump), version).snapshot();
            source = dump;
        } else {
            String url = "?";
            try (KubernetesClient client = clients.get()) {
                url = client.getConfiguration().getMasterUrl();
                source = "the cluster at " + url;
                snapshot = ApiSnapshot.read(client);
                KubeVersion served = version != null ? version : ApiSnapshot.version(client);
                snapshot = served == null ? snapshot : snapshot.change().version(served).build();
            } catch (KubernetesClientException e) {
                out.println("cannot read the cluster from the API at " + url + ": " + (e.getCode() > 0 ? "HTTP " + e.getCode() + ": "
                        + e.getMessage().lines().findFirst().orElse("") : rootCause(e)));
                return 2;
            }
        }
        PodInfo pending = snapshot.pods().stream().filter(p -> p.ref().toString().equals(pod)).findFirst().orElse(null);
        if (pending == null) {
            out.println("no pod " + pod + " in " + source);
            return 2;
        }
        return explain(snapshot, pending, out);
    }

    static int explain(ClusterSnapshot snapshot, PodInfo pending, PrintStream out) {
        out.println(pending.ref() + ": priority " + pending.priority() + ", requests " + pending.requests()
                + (pending.isAssigned() ? ", bound to " + pending.nodeName() : ", pending")
                + " (kube-scheduler " + snapshot.version() + "'s rules)");
        PodPlacement placement = PodPlacement.of(new SnapshotState(snapshot, Instant.now()), pending);
        PlacementSurvey where = PlacementSurvey.of(placement);
        if (!where.fits().isEmpty()) {
            out.println("fits without preemption on " + String.join(", ", where.fits()));
            return 0;
        }
        List<String> candidates = where.preemptionCandidates();
        PreemptionSettings all = new PreemptionSettings(PreemptionSettings.DEFAULTS.strategy(), AnswerMode.ALL,
                PreemptionSettings.DEFAULTS.pdb(), PreemptionSettings.DEFAULTS.budget());
        PreemptionDecision decision = candidates.isEmpty() ? null : new PreemptionEngine(all, System::nanoTime)
                .decide(snapshot, pending, Candidate.onNodes(candidates), QueueRules.off(), placement);
        out.println(decision == null ? "preemption: not tried (no node where evicting pods could help)"
                : "preemption: " + decision.outcome() + " (" + decision.detail() + ")");
        Map<String, NodeVerdict> verdicts = new TreeMap<>();
        if (decision != null) {
            decision.verdicts().forEach(v -> verdicts.put(v.node(), v));
        }
        for (String node : snapshot.nodes().stream().map(NodeInfo::name).sorted().toList()) {
            NodeVerdict verdict = verdicts.get(node);
            String why = where.reasonOn(node);
            if (verdict == null) {
                out.println("  " + node + " (" + why + "): not a candidate — " + (where.unknown().containsKey(node)
                        ? "makeroom cannot tell whether the pod fits" : "evicting pods cannot change this"));
            } else if (verdict.isFeasible()) {
                out.println("  " + node + " (" + why + "): evict " + String.join(", ", verdict.victims().victims()
                        .stream().map(p -> p.ref() + " (priority " + p.priority() + ")").toList())
                        + (verdict.victims().pdbViolations() == 0 ? ""
                        : "; breaks " + verdict.victims().pdbViolations() + " PodDisruptionBudget allowance(s)")
                        + (verdict.provenOptimal() ? "" : " [search ran out of time: " + (verdict.stats().gap() == null
                        ? "not proven the fewest" : verdict.stats().gap().describe()) + "]"));
            } else {
                out.println("  " + node + " (" + why + "): no — "
                        + (verdict.detail() != null ? verdict.detail() : String.valueOf(verdict.reason())));
            }
        }
        return decision == null || decision.chosen().isEmpty() ? 1 : 0;
    }

    /** The innermost cause, as its class and message: what a connection that failed says (refused, unknown host). */
    private static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }

    private static String argument(String[] args, String prefix) {
        for (String a : args) {
            if (a.startsWith(prefix)) {
                return a.substring(prefix.length());
            }
        }
        return null;
    }
}
