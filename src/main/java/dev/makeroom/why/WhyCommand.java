package dev.makeroom.why;

import dev.makeroom.cluster.SnapshotFileClusterView;
import dev.makeroom.core.filter.FilterPolicy;
import dev.makeroom.core.filter.FilterVerdict;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.preemption.AnswerMode;
import dev.makeroom.core.preemption.Candidate;
import dev.makeroom.core.preemption.NodeVerdict;
import dev.makeroom.core.preemption.PreemptionDecision;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.core.preemption.PreemptionSettings;
import dev.makeroom.core.preemption.QueueRules;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * {@code java -jar makeroom.jar --why=namespace/name --dump=cluster.yaml}: loads a dump ({@code kubectl
 * get nodes,pods,pdb,priorityclasses -A -o yaml}), decides for the named pending pod as makeroom's
 * filter and preempt would over every node (default settings, no queues), prints the decision with
 * its reasons, node by node, and exits: 0 when the pod would be placed or preempt, 1 when nothing
 * works, 2 when the question cannot be asked (no such pod, no such file).
 */
public final class WhyCommand {

    private WhyCommand() {
    }

    /** Whether the arguments ask this command rather than the server. */
    public static boolean asked(String[] args) {
        return List.of(args).stream().anyMatch(a -> a.startsWith("--why="));
    }

    public static int run(String[] args, PrintStream out) {
        String pod = argument(args, "--why=");
        String dump = argument(args, "--dump=");
        if (pod == null || !pod.contains("/") || dump == null) {
            out.println("usage: --why=namespace/name --dump=<file of Kubernetes objects, YAML or JSON>");
            return 2;
        }
        if (!Files.isReadable(Path.of(dump))) {
            out.println("cannot read " + dump);
            return 2;
        }
        ClusterSnapshot snapshot = new SnapshotFileClusterView(Path.of(dump)).snapshot();
        PodInfo pending = snapshot.pods().stream().filter(p -> p.ref().toString().equals(pod)).findFirst().orElse(null);
        if (pending == null) {
            out.println("no pod " + pod + " in " + dump);
            return 2;
        }
        return explain(snapshot, pending, out);
    }

    static int explain(ClusterSnapshot snapshot, PodInfo pending, PrintStream out) {
        List<String> nodes = snapshot.nodes().stream().map(NodeInfo::name).sorted().toList();
        out.println(pending.ref() + ": priority " + pending.priority() + ", requests " + pending.requests()
                + (pending.isAssigned() ? ", bound to " + pending.nodeName() : ", pending"));
        FilterVerdict fits = new FilterPolicy().filter(snapshot, pending, nodes, null, Instant.now());
        if (!fits.passed().isEmpty()) {
            out.println("fits without preemption on " + String.join(", ", fits.passed()));
            return 0;
        }
        PreemptionSettings all = new PreemptionSettings(PreemptionSettings.DEFAULTS.strategy(), AnswerMode.ALL,
                PreemptionSettings.DEFAULTS.pdb(), PreemptionSettings.DEFAULTS.budget());
        PreemptionDecision decision = new PreemptionEngine(all, System::nanoTime)
                .decide(snapshot, pending, Candidate.onNodes(nodes), QueueRules.off());
        out.println("preemption: " + decision.outcome() + " (" + decision.detail() + ")");
        Map<String, String> failed = fits.failed();
        for (NodeVerdict verdict : decision.verdicts().stream().sorted(Comparator.comparing(NodeVerdict::node)).toList()) {
            String why = failed.getOrDefault(verdict.node(), "");
            if (verdict.isFeasible()) {
                out.println("  " + verdict.node() + " (" + why + "): evict " + String.join(", ", verdict.victims().victims()
                        .stream().map(p -> p.ref() + " (priority " + p.priority() + ")").toList())
                        + (verdict.victims().pdbViolations() == 0 ? ""
                        : "; breaks " + verdict.victims().pdbViolations() + " PodDisruptionBudget allowance(s)")
                        + (verdict.provenOptimal() ? "" : " [search ran out of time: " + (verdict.stats().gap() == null
                        ? "not proven the fewest" : verdict.stats().gap().describe()) + "]"));
            } else {
                out.println("  " + verdict.node() + " (" + why + "): no — "
                        + (verdict.detail() != null ? verdict.detail() : String.valueOf(verdict.reason())));
            }
        }
        return decision.chosen().isEmpty() ? 1 : 0;
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
