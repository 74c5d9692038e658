package dev.makeroom.ship;

import dev.makeroom.cluster.SnapshotFileLoader;
import dev.makeroom.mapping.SnapshotMapper;
import dev.makeroom.core.model.ClusterSnapshot;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The example PriorityClasses and workload mean to makeroom and the chart what their comments say. */
class ExamplesTest {

    private final List<HasMetadata> classes = new SnapshotFileLoader().load(Path.of("examples/priority-classes.yaml"));
    private final List<HasMetadata> workload = new SnapshotFileLoader().load(Path.of("examples/workload.yaml"));

    @Test
    void one_priority_class_opts_out_of_preemption_and_one_never_preempts() {
        ClusterSnapshot snapshot = SnapshotMapper.toSnapshot(classes);
        Set<String> names = names();
        assertThat(names).hasSize(4);
        assertThat(names.stream().filter(name -> snapshot.priorityClass(name).optedOut()))
                .containsExactly("service-protected");
        assertThat(classes).map(PriorityClass.class::cast).filteredOn(pc -> "Never".equals(pc.getPreemptionPolicy()))
                .extracting(pc -> pc.getMetadata().getName()).containsExactly("batch-waits");
    }

    @Test
    void the_workload_uses_the_charts_second_scheduler_and_the_example_classes() {
        Object schedulerName = Chart.path(Chart.yaml(Chart.read("helm/makeroom/values.yaml")),
                "scheduler.name");
        List<PodTemplateSpec> templates = Stream.concat(
                workload.stream().filter(Deployment.class::isInstance).map(d -> ((Deployment) d).getSpec().getTemplate()),
                workload.stream().filter(Job.class::isInstance).map(j -> ((Job) j).getSpec().getTemplate())).toList();
        assertThat(templates).hasSize(3).allSatisfy(template -> {
            assertThat(template.getSpec().getSchedulerName()).isEqualTo(schedulerName);
            assertThat(names()).contains(template.getSpec().getPriorityClassName());
            assertThat(template.getSpec().getContainers()).allSatisfy(c ->
                    assertThat(c.getResources().getRequests()).containsKeys("cpu", "memory"));
        });
        PodDisruptionBudget budget = workload.stream().filter(PodDisruptionBudget.class::isInstance)
                .map(PodDisruptionBudget.class::cast).findFirst().orElseThrow();
        assertThat(workload).filteredOn(Deployment.class::isInstance).map(Deployment.class::cast)
                .anySatisfy(d -> assertThat(d.getSpec().getTemplate().getMetadata().getLabels())
                        .containsAllEntriesOf(budget.getSpec().getSelector().getMatchLabels()));
    }

    private Set<String> names() {
        return classes.stream().map(pc -> pc.getMetadata().getName()).collect(Collectors.toSet());
    }
}
