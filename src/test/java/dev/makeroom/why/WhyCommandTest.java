package dev.makeroom.why;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The offline "why" on the bundled dumps: the decision and, node by node, its reasons. */
class WhyCommandTest {

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    private int why(String... args) {
        return WhyCommand.run(args, new PrintStream(printed, true, StandardCharsets.UTF_8));
    }

    private String output() {
        return printed.toString(StandardCharsets.UTF_8);
    }

    @Test
    void a_pod_that_preempts_is_told_where_whom_and_why_not_elsewhere() {
        assertThat(why("--why=default/critical-job", "--dump=examples/demo-cluster.yaml")).isZero();
        assertThat(output()).contains("default/critical-job: priority 1000, requests cpu 2, memory 1Gi, pending")
                .contains("\n0/4 nodes are available: 4 Insufficient cpu.\n")
                .contains("preemption: PREEMPT (on node-a evict default/batch-big)")
                .contains("node-a (Insufficient cpu): evict default/batch-big (priority 100)")
                .contains("node-b (Insufficient cpu): no — evicting every preemptible pod frees too little of [cpu];"
                        + " not preemptible: 2 opted out by PriorityClass")
                .contains("node-c (Insufficient cpu): evict shop/web-2 (priority 100); 48.00 h of work lost;"
                        + " breaks PodDisruptionBudget shop/web (allows 0, would lose 1)");
    }

    @Test
    void a_pod_in_a_file_is_asked_about_as_if_pending() throws java.io.IOException {
        assertThat(why("--why=@examples/pods/nightly-report.yaml", "--dump=examples/demo-cluster.yaml")).isEqualTo(1);
        assertThat(output()).startsWith("default/nightly-report: priority 100, requests cpu 3, memory 1Gi, pending")
                .contains("preemption: NO_FEASIBLE_NODE");
        java.nio.file.Path small = java.nio.file.Files.createTempFile("pod", ".json");
        java.nio.file.Files.writeString(small, "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"tiny\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"250m\"}}}]}}");
        printed.reset();
        assertThat(why("--why=@" + small, "--dump=examples/demo-cluster.yaml")).isZero();
        assertThat(output()).startsWith("default/tiny: priority 0, requests cpu 250m, pending").contains("fits without preemption on node-d");
        printed.reset();
        assertThat(why("--why=@no-such-pod.yaml", "--dump=examples/demo-cluster.yaml")).isEqualTo(2);
        assertThat(output()).startsWith("cannot read a Pod from no-such-pod.yaml");
    }

    @Test
    void the_readmes_example_prints_as_shown() throws java.io.IOException {
        String section = dev.makeroom.support.Docs.page("why");
        int start = section.indexOf("```text\n") + "```text\n".length();
        String shown = section.substring(start, section.indexOf("```", start)).strip();
        why("--why=default/critical-job", "--dump=examples/demo-cluster.yaml");
        assertThat(output().strip()).isEqualTo(shown);
        int second = section.indexOf("```text\n", start) + "```text\n".length();
        String placement = section.substring(second, section.indexOf("```", second)).strip();
        printed.reset();
        why("--why=default/web-3", "--dump=examples/placement-cluster.yaml");
        assertThat(output().strip()).isEqualTo(placement);
    }

    @Test
    void a_pod_nothing_can_be_evicted_for_exits_1_with_each_nodes_reason() {
        assertThat(why("--why=batch/report", "--dump=examples/defragment-cluster.yaml")).isEqualTo(1);
        assertThat(output()).contains("preemption: NO_FEASIBLE_NODE")
                .contains("node-1 (Insufficient cpu): no — evicting every preemptible pod frees too little of [cpu];"
                        + " not preemptible: 2 at equal or higher priority");
    }

    @Test
    void a_question_that_cannot_be_asked_exits_2_saying_why() {
        assertThat(why("--why=default/nobody", "--dump=examples/demo-cluster.yaml")).isEqualTo(2);
        assertThat(output()).contains("no pod default/nobody in examples/demo-cluster.yaml");
        assertThat(why("--why=critical-job", "--dump=examples/demo-cluster.yaml")).isEqualTo(2);
        assertThat(why("--why=default/critical-job", "--dump=no-such-file.yaml")).isEqualTo(2);
        assertThat(output()).contains("usage: --why=namespace/name").contains("cannot read no-such-file.yaml");
    }

    @Test
    void a_dump_or_pod_it_cannot_read_exits_2_with_one_line_naming_what_is_wrong() throws java.io.IOException {
        assertThat(why("--why=default/critical-job", "--dump=README.md")).isEqualTo(2);
        assertThat(output()).startsWith("cannot parse README.md as Kubernetes objects: line 5, column 1: could not find expected ':'"
                + " (while scanning a simple key from line 4, column 1)").doesNotContain("\tat ")
                .doesNotContain("Exception");
        assertThat(output().lines().count()).isOne();
        java.nio.file.Path nodes = java.nio.file.Files.createTempFile("dump", ".yaml");
        java.nio.file.Files.writeString(nodes, "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
                + "status: {allocatable: {cpu: [1, 2]}}\n");
        printed.reset();
        assertThat(why("--why=default/critical-job", "--dump=" + nodes)).isEqualTo(2);
        assertThat(output()).startsWith("cannot parse " + nodes).doesNotContain("\tat ");
        java.nio.file.Path pod = java.nio.file.Files.createTempFile("pod", ".yaml");
        java.nio.file.Files.writeString(pod, "apiVersion: v1\nkind: Pod\nmetadata: {name: odd}\n"
                + "spec: {containers: [{name: c, resources: {requests: {cpu: 2a}}}]}\n");
        printed.reset();
        assertThat(why("--why=@" + pod, "--dump=examples/demo-cluster.yaml")).isEqualTo(2);
        assertThat(output()).startsWith("cannot read a Pod from " + pod
                + ": Pod.spec.containers[0].resources.requests.cpu: '2a' is not a quantity").doesNotContain("Exception");
    }

    /** Devices decide, in the scheduler's words: no node has two free H100s; node-3 has two free A100s. */
    @Test
    void a_pod_with_resource_claims_is_told_where_its_claims_can_be_allocated() {
        String dump = "--dump=src/test/resources/clusters/dra-cluster.yaml";
        assertThat(why("--why=team/trainer", dump)).isEqualTo(1);
        assertThat(output()).contains("0/3 nodes are available: 3 cannot allocate all claims.")
                .contains("node-1 (cannot allocate all claims): not a candidate — evicting pods cannot change this")
                .doesNotContain("unknown");
        printed.reset();
        assertThat(why("--why=team/any-model", dump)).isZero();
        assertThat(output()).contains("fits without preemption on node-3");
    }

    @Test
    void it_answers_with_the_rules_of_the_version_asked_and_refuses_one_it_cannot_read() {
        assertThat(why("--why=default/critical-job", "--dump=examples/demo-cluster.yaml", "--kubernetes-version=v1.32.13"))
                .isZero();
        assertThat(output()).contains("default/critical-job: priority 1000").contains("(kube-scheduler 1.32's rules)");
        assertThat(why("--why=default/critical-job", "--dump=examples/demo-cluster.yaml", "--kubernetes-version=new"))
                .isEqualTo(2);
        assertThat(output()).contains("--kubernetes-version: not a Kubernetes version");
    }

    @Test
    void the_scheduler_filters_decide_where_preemption_is_tried_and_each_node_says_which_refused() {
        assertThat(why("--why=default/web-3", "--dump=examples/placement-cluster.yaml")).isZero();
        assertThat(output()).contains("preemption: PREEMPT (on node-e evict default/batch-big)")
                .contains("node-a (node(s) were unschedulable): not a candidate")
                .contains("node-b (node(s) had untolerated taint {dedicated: gpu}): not a candidate")
                .contains("node-c (node(s) didn't have free ports for the requested pod ports): no — ")
                .contains("node-d (node(s) didn't match pod topology spread constraints): no — ")
                .contains("node-e (Insufficient cpu): evict default/batch-big (priority 100)")
                .contains("node-f (node(s) didn't match pod topology spread constraints (missing required label)):"
                        + " not a candidate");
    }

    @Test
    void a_node_selector_no_node_matches_is_never_told_it_fits() {
        assertThat(why("--why=default/report", "--dump=examples/placement-cluster.yaml")).isEqualTo(1);
        assertThat(output()).contains("preemption: not tried (no node where evicting pods could help)")
                .contains("node-d (node(s) didn't match Pod's node affinity/selector): not a candidate")
                .doesNotContain("fits without preemption");
    }

    @Test
    void a_pod_tolerating_the_cordon_and_taints_fits_where_only_resources_are_left() {
        assertThat(why("--why=default/probe", "--dump=examples/placement-cluster.yaml")).isZero();
        assertThat(output()).contains("fits without preemption on node-a, node-b, node-c, node-d, node-f" + System.lineSeparator());
    }
}
