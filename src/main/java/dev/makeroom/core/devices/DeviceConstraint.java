package dev.makeroom.core.devices;

import java.util.List;

/**
 * A claim's constraint over the devices of {@code requests} (empty: all its requests; a request's
 * name covers its subrequests): {@code matchAttribute} (all have the attribute, with one type and
 * value) or, {@code distinct}, all values differ. The attribute is fully qualified.
 */
public record DeviceConstraint(List<String> requests, String attribute, boolean distinct) {

    public DeviceConstraint {
        requests = List.copyOf(requests);
    }

    /** Whether the constraint covers the devices of way {@code way} (a request or {@code request/subrequest}). */
    public boolean covers(String way) {
        if (requests.isEmpty()) {
            return true;
        }
        int slash = way.indexOf('/');
        return requests.contains(way) || slash > 0 && requests.contains(way.substring(0, slash));
    }
}
