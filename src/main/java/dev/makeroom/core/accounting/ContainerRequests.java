package dev.makeroom.core.accounting;

import dev.makeroom.core.model.Resources;

/** One container's requests; {@code restartable} marks a sidecar (an init container with restartPolicy Always). */
public record ContainerRequests(Resources requests, boolean restartable) {
    public static ContainerRequests app(Resources requests) {
        return new ContainerRequests(requests, false);
    }
}
