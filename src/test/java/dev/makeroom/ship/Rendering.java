package dev.makeroom.ship;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The objects of one rendering of the chart, looked up by type and name. */
record Rendering(List<HasMetadata> objects) {

    <T extends HasMetadata> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends HasMetadata> T one(Class<T> type, String name) {
        List<T> named = all(type).stream().filter(o -> o.getMetadata().getName().equals(name)).toList();
        assertThat(named).as(type.getSimpleName() + " " + name).hasSize(1);
        return named.get(0);
    }

    List<HasMetadata> ofKind(String kind) {
        return objects.stream().filter(o -> o.getKind().equals(kind)).toList();
    }

    Stream<Container> containers() {
        return all(Deployment.class).stream().map(d -> d.getSpec().getTemplate().getSpec())
                .flatMap(Rendering::allContainers);
    }

    private static Stream<Container> allContainers(PodSpec pod) {
        return Stream.concat(pod.getInitContainers().stream(), pod.getContainers().stream());
    }

    static Container container(Deployment deployment) {
        List<Container> containers = deployment.getSpec().getTemplate().getSpec().getContainers();
        assertThat(containers).hasSize(1);
        return containers.get(0);
    }

    static String mountPath(Container container, String volume) {
        return container.getVolumeMounts().stream().filter(m -> m.getName().equals(volume)).map(VolumeMount::getMountPath)
                .findFirst().orElseThrow(() -> new AssertionError("no mount of " + volume + " in " + container.getName()));
    }
}
