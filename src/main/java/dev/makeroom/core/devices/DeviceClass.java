package dev.makeroom.core.devices;

import java.util.List;

/**
 * A DeviceClass: the CEL selectors every device of the class must pass, and the extended resource
 * its devices can serve ({@code extendedResourceName}; null: only the implicit
 * {@code deviceclass.resource.kubernetes.io/<name>}).
 */
public record DeviceClass(String name, List<String> selectors, String extendedResourceName) {

    public DeviceClass {
        selectors = List.copyOf(selectors);
    }
}
