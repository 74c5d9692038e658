package dev.makeroom.why;

import dev.makeroom.cluster.ApiSnapshot;
import dev.makeroom.cluster.SnapshotFileClusterView;
import dev.makeroom.cluster.SnapshotLoadException;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.KubeVersion;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.placement.SnapshotState;
import dev.makeroom.core.preemption.PendingPodSurvey;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.core.preemption.PreemptionPipeline;
import dev.makeroom.core.preemption.PreemptionSettings;
import dev.makeroom.core.room.QueueRules;
import dev.makeroom.mapping.PodMapper;
import dev.makeroom.mapping.UnreadableQuantity;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code java -jar makeroom.jar --why=namespace/name|@pod.yaml [--dump=cluster.yaml]}: loads a dump ({@code kubectl
 * get namespaces,nodes,pods,pdb,priorityclasses -A -o yaml}), or without one lists the cluster once from the API
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
        if (pod == null || !pod.contains("/") && !pod.startsWith("@")) {
            out.println("usage: --why=namespace/name|@pod.yaml [--dump=<file of Kubernetes objects, YAML or JSON>]"
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
            try {
                snapshot = new SnapshotFileClusterView(Path.of(dump), version).snapshot();
            } catch (SnapshotLoadException e) { // the same one line the server stops with, naming the field
                out.println(e.getMessage());
                return 2;
            }
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
        PodInfo pending;
        if (pod.startsWith("@")) { // a pod of one's own, as /debug/simulate takes one: asked about as if pending
            try {
                pending = podFromFile(Path.of(pod.substring(1)), snapshot);
            } catch (IllegalArgumentException e) { // says which field, in the user's terms
                out.println("cannot read a Pod from " + pod.substring(1) + ": " + e.getMessage());
                return 2;
            } catch (IOException | RuntimeException e) {
                out.println("cannot read a Pod from " + pod.substring(1) + ": " + rootCause(e));
                return 2;
            }
        } else {
            pending = snapshot.podNamed(pod);
        }
        if (pending == null) {
            out.println("no pod " + pod + " in " + source);
            return 2;
        }
        return explain(snapshot, pending, out);
    }

    /** The Pod in {@code file} (YAML or JSON), unbound, its priority resolved from the cluster's classes. */
    static PodInfo podFromFile(Path file, ClusterSnapshot snapshot) throws IOException {
        Pod pod = new KubernetesSerialization().unmarshal(Files.readString(file), Pod.class);
        if (pod == null || pod.getMetadata() == null || pod.getMetadata().getName() == null) {
            throw new IllegalArgumentException("not a Pod with a metadata.name");
        }
        if (pod.getMetadata().getNamespace() == null) {
            pod.getMetadata().setNamespace("default");
        }
        if (pod.getSpec() != null) {
            pod.getSpec().setNodeName(null);
        }
        if (pod.getMetadata().getUid() == null) {
            pod.getMetadata().setUid("why-" + pod.getMetadata().getNamespace() + "-" + pod.getMetadata().getName());
        }
        Optional<String> unreadable = UnreadableQuantity.in(pod, "Pod"); // as POST /debug/why names it
        if (unreadable.isPresent()) {
            throw new IllegalArgumentException(unreadable.get());
        }
        return PodMapper.toCore(pod, snapshot::priorityValue);
    }

    static int explain(ClusterSnapshot snapshot, PodInfo pending, PrintStream out) {
        // offline: default settings, no queues (a dump holds no queue configuration)
        return WhyExplanation.write(PreemptionPipeline.of(new PreemptionEngine(PreemptionSettings.DEFAULTS, System::nanoTime)),
                new SnapshotState(snapshot, Instant.now()), snapshot, pending,
                new PendingPodSurvey.Settings(Optional.empty(), QueueRules.off(), PendingPodSurvey.Decide.AS_THE_SCHEDULER_WOULD), out)
                ? 0 : 1;
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
