package dev.makeroom.mapping;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.QosClass;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.model.Toleration;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class PodMapperTest {

    private static PodInfo map(String yaml) {
        return PodMapper.toCore(new KubernetesSerialization().unmarshal(yaml, Pod.class), name -> null);
    }

    @Test
    void sidecars_and_init_containers_and_overhead_are_accounted_like_the_scheduler() {
        PodInfo pod = map("""
                apiVersion: v1
                kind: Pod
                metadata: {name: p, uid: u}
                spec:
                  overhead: {cpu: 100m}
                  initContainers:
                  - name: sidecar
                    restartPolicy: Always
                    resources: {requests: {cpu: 200m}}
                  - name: migrate
                    resources: {requests: {cpu: "2", memory: 1Gi}}
                  containers:
                  - name: app
                    resources: {requests: {cpu: 500m, memory: 256Mi}}
                """);
        // running: app 500m + sidecar 200m = 700m; init peak: migrate 2000m + sidecar 200m = 2200m
        assertThat(pod.requests()).isEqualTo(Resources.of("cpu", 2300, "memory", 1L << 30));
    }

    @Test
    void limits_stand_in_for_missing_requests_and_make_the_pod_guaranteed() {
        PodInfo pod = map("""
                apiVersion: v1
                kind: Pod
                metadata: {name: p, uid: u}
                spec:
                  containers:
                  - name: app
                    resources: {limits: {cpu: "1", memory: 1Gi, nvidia.com/gpu: "1"}}
                """);
        assertThat(pod.requests()).isEqualTo(Resources.of("cpu", 1000, "memory", 1L << 30, "nvidia.com/gpu", 1));
        assertThat(pod.qos()).isEqualTo(QosClass.GUARANTEED);
    }

    @Test
    void opt_out_daemonset_pinning_host_ports_and_terminating_are_read() {
        PodInfo pod = map("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: agent
                  uid: u
                  deletionTimestamp: "2026-11-22T00:00:00Z"
                  annotations: {yunikorn.apache.org/allow-preemption: "false"}
                  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: ds1, controller: true}]
                spec:
                  affinity:
                    nodeAffinity:
                      requiredDuringSchedulingIgnoredDuringExecution:
                        nodeSelectorTerms:
                        - matchFields: [{key: metadata.name, operator: In, values: [node-7]}]
                  containers:
                  - name: app
                    ports: [{containerPort: 80, hostPort: 8080}]
                """);
        assertThat(pod.optedOut()).isTrue();
        assertThat(pod.terminating()).isTrue();
        assertThat(pod.isDaemonSetPodFor("node-7")).isTrue();
        assertThat(pod.isDaemonSetPodFor("node-8")).isFalse();
        assertThat(pod.hostPorts()).extracting(p -> p.port()).containsExactly(8080);
        assertThat(pod.qos()).isEqualTo(QosClass.BEST_EFFORT);
    }

    @Test
    void pod_level_requests_replace_the_containers_for_cpu_memory_and_hugepages_only() {
        PodInfo pod = map("""
                apiVersion: v1
                kind: Pod
                metadata: {name: p, uid: u}
                spec:
                  resources:
                    requests: {cpu: "2", memory: 1Gi}
                  overhead: {cpu: 100m}
                  containers:
                  - {name: a, resources: {requests: {cpu: 500m, memory: 256Mi, example.com/gpu: "1"}}}
                  - {name: b, resources: {requests: {cpu: 500m}}}
                """);
        assertThat(pod.requests()).isEqualTo(Resources.of("cpu", 2100, "memory", 1L << 30, "example.com/gpu", 1));
    }

    @Test
    void a_resize_under_way_counts_the_larger_of_asked_allocated_and_running() {
        // the spec asks for 2 cpus now; the kubelet allocated 1 and the container still runs with 1
        String growing = """
                apiVersion: v1
                kind: Pod
                metadata: {name: p, uid: u}
                spec:
                  nodeName: n1
                  containers: [{name: a, resources: {requests: {cpu: "2", memory: 1Gi}}}]
                status:
                  containerStatuses:
                  - name: a
                    allocatedResources: {cpu: "1", memory: 1Gi}
                    resources: {requests: {cpu: "1", memory: 1Gi}}
                """;
        assertThat(map(growing).requests()).isEqualTo(Resources.of("cpu", 2000, "memory", 1L << 30));
        // shrinking: the spec asks for 1 but the container still runs with 3 until the kubelet acts
        String shrinking = growing.replace("cpu: \"2\"", "cpu: \"1\"").replace("resources: {requests: {cpu: \"1\", memory: 1Gi}}\n",
                "resources: {requests: {cpu: \"3\", memory: 1Gi}}\n");
        assertThat(map(shrinking).requests().get("cpu")).isEqualTo(3000);
        // infeasible: the spec's wish will not be granted; what is allocated and running counts
        String infeasible = growing.replace("cpu: \"2\"", "cpu: \"8\"") + """
                  conditions:
                  - {type: PodResizePending, status: "True", reason: Infeasible}
                """;
        assertThat(map(infeasible).requests().get("cpu")).isEqualTo(1000);
    }

    @Test
    void what_defragmentation_reads_unschedulable_since_scheduler_and_opt_out() {
        PodInfo waiting = map("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: report
                  uid: u
                  annotations: {makeroom.dev/defragment: "false"}
                spec:
                  schedulerName: makeroom-scheduler
                  containers: [{name: c}]
                status:
                  conditions:
                  - {type: PodScheduled, status: "False", reason: Unschedulable, lastTransitionTime: "2026-11-23T15:00:00Z"}
                """);
        assertThat(waiting.unschedulableSince()).isEqualTo(Instant.parse("2026-11-23T15:00:00Z"));
        assertThat(waiting.schedulerName()).isEqualTo("makeroom-scheduler");
        assertThat(waiting.defragmentable()).isFalse();
        PodInfo gated = map("""
                apiVersion: v1
                kind: Pod
                metadata: {name: gated, uid: g}
                spec: {containers: [{name: c}]}
                status:
                  conditions:
                  - {type: PodScheduled, status: "False", reason: SchedulingGated}
                """);
        assertThat(gated.unschedulableSince()).as("gated, not found unschedulable").isNull();
        assertThat(gated.schedulerName()).isEqualTo(PodInfo.DEFAULT_SCHEDULER);
        assertThat(gated.defragmentable()).isTrue();
    }

    @Test
    void a_pod_without_resolved_priority_takes_its_class_value() {
        Pod pod = new KubernetesSerialization().unmarshal("""
                apiVersion: v1
                kind: Pod
                metadata: {name: p, uid: u}
                spec: {priorityClassName: high, containers: [{name: c}]}
                """, Pod.class);
        assertThat(PodMapper.toCore(pod, name -> "high".equals(name) ? 1000 : null).priority()).isEqualTo(1000);
    }

    @Test
    void what_a_move_needs_is_read_tolerations_the_wish_not_to_move_and_local_data() {
        PodInfo pod = map("""
                apiVersion: v1
                kind: Pod
                metadata: {name: p, uid: u, annotations: {makeroom.dev/evictable: "false"}}
                spec:
                  tolerations:
                  - {key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}
                  - {operator: Exists}
                  volumes:
                  - {name: scratch, emptyDir: {}}
                  containers: [{name: app}]
                """);
        assertThat(pod.tolerations()).containsExactly(new Toleration("dedicated", "Equal", "gpu", "NoSchedule"),
                new Toleration(null, "Exists", null, null));
        assertThat(pod.evictable()).isFalse();
        assertThat(pod.localStorage()).isTrue();
        PodInfo plain = map("""
                apiVersion: v1
                kind: Pod
                metadata: {name: q, uid: v}
                spec:
                  volumes:
                  - {name: config, configMap: {name: c}}
                  containers: [{name: app}]
                """);
        assertThat(plain.tolerations()).isEmpty();
        assertThat(plain.evictable()).isTrue();
        assertThat(plain.localStorage()).isFalse();
    }
}
