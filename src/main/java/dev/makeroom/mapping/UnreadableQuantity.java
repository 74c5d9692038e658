package dev.makeroom.mapping;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The first amount of a pod that makeroom cannot read, named by its field: a mapping failure deep
 * in the requests' arithmetic says only "Overflow" or which character is wrong, and the reader of
 * a 400 needs to know which of a pod's dozens of amounts it was.
 */
public final class UnreadableQuantity {

    private UnreadableQuantity() {
    }

    /** "Pod.spec.containers[0].resources.requests.cpu: '2a' is not a quantity …", or empty when every amount reads. */
    public static Optional<String> in(Pod pod, String root) {
        PodSpec spec = pod.getSpec();
        if (spec != null) {
            Optional<String> found = containers(spec.getContainers(), root + ".spec.containers")
                    .or(() -> containers(spec.getInitContainers(), root + ".spec.initContainers"))
                    .or(() -> amounts(spec.getOverhead(), root + ".spec.overhead"))
                    .or(() -> requirements(spec.getResources(), root + ".spec.resources"));
            if (found.isPresent()) {
                return found;
            }
        }
        if (pod.getStatus() != null) {
            return statuses(pod.getStatus().getContainerStatuses(), root + ".status.containerStatuses")
                    .or(() -> statuses(pod.getStatus().getInitContainerStatuses(), root + ".status.initContainerStatuses"));
        }
        return Optional.empty();
    }

    private static Optional<String> containers(List<Container> containers, String path) {
        for (int i = 0; containers != null && i < containers.size(); i++) {
            Optional<String> found = requirements(containers.get(i).getResources(), path + "[" + i + "].resources");
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private static Optional<String> statuses(List<ContainerStatus> statuses, String path) {
        for (int i = 0; statuses != null && i < statuses.size(); i++) {
            ContainerStatus status = statuses.get(i);
            String at = path + "[" + i + "]";
            Optional<String> found = amounts(status.getAllocatedResources(), at + ".allocatedResources")
                    .or(() -> requirements(status.getResources(), at + ".resources"));
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private static Optional<String> requirements(ResourceRequirements resources, String path) {
        if (resources == null) {
            return Optional.empty();
        }
        return amounts(resources.getRequests(), path + ".requests").or(() -> amounts(resources.getLimits(), path + ".limits"));
    }

    private static Optional<String> amounts(Map<String, Quantity> amounts, String path) {
        if (amounts == null) {
            return Optional.empty();
        }
        for (Map.Entry<String, Quantity> amount : amounts.entrySet()) {
            Quantity quantity = amount.getValue();
            if (quantity == null) {
                continue;
            }
            try {
                Quantities.toLong(amount.getKey(), quantity);
            } catch (ArithmeticException | IllegalArgumentException e) {
                String text = (quantity.getAmount() == null ? "" : quantity.getAmount())
                        + (quantity.getFormat() == null ? "" : quantity.getFormat());
                return Optional.of(path + "." + amount.getKey() + ": '" + text + "' " + (isTooLarge(e)
                        ? "is too large"
                        : "is not a quantity (a number with an optional suffix, as 500m, 2 or 1Gi)"));
            }
        }
        return Optional.empty();
    }

    private static boolean isTooLarge(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof ArithmeticException) {
                return true;
            }
        }
        return false;
    }
}
