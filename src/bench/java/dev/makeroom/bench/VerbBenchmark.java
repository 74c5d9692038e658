package dev.makeroom.bench;

import dev.makeroom.core.filter.FilterPolicy;
import dev.makeroom.core.filter.FilterVerdict;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.NodeTable;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.QosClass;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.score.NodeScore;
import dev.makeroom.core.score.ShieldScorePolicy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.List;
import java.util.concurrent.TimeUnit;

/** Filter and prioritize in the core (no HTTP or JSON) over every node of a generated cluster, and the node table they read. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class VerbBenchmark {

    @Param({"5000"})
    int nodes;

    private ClusterSnapshot snapshot;
    private List<String> names;
    private PodInfo pod;
    private final FilterPolicy filter = new FilterPolicy();
    private final ShieldScorePolicy score = new ShieldScorePolicy();

    @Setup
    public void setUp() {
        snapshot = SyntheticCluster.generate(nodes, 30, 42);
        snapshot.table();
        names = snapshot.nodes().stream().map(NodeInfo::name).sorted().toList();
        pod = PodInfo.builder("p").priority(500).requests(Resources.of("cpu", 500, "memory", 1L << 30))
                .qos(QosClass.BURSTABLE).build();
    }

    @Benchmark
    public FilterVerdict filter() {
        return filter.filter(snapshot, pod, names);
    }

    /**
     * What the first filter or prioritize on a newly published snapshot pays extra: its node table,
     * derived from the last one built, after one node changed (a pod bound or gone).
     */
    @Benchmark
    public NodeTable newSnapshotTable() {
        NodeInfo changed = snapshot.node(names.get(0));
        return snapshot.change().putNode(changed.withPods(changed.pods(), changed.nominatedPods())).build().table();
    }

    /** The same table built in full from every node, as after nodes joined or left the cluster. */
    @Benchmark
    public NodeTable fullTable() {
        return snapshot.change().removeNode(names.get(0)).build().table();
    }

    @Benchmark
    public List<NodeScore> prioritize() {
        return score.score(snapshot, pod, names);
    }
}
