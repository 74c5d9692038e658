package dev.makeroom.cluster;

import tools.jackson.databind.json.JsonMapper;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * For the CRUD mock, which keeps no event history: whether a resource changed between a list and a
 * watch that resumes from that list's resourceVersion. Such a watch must be told 410 Gone, or the
 * change would be lost (a real API server would replay it).
 */
final class ListWatchGaps {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern VERSION = Pattern.compile("[?&]resourceVersion=([^&]*)");

    private final Map<String, Long> changes = new HashMap<>();
    private final Map<String, Long> changesAtList = new HashMap<>();

    synchronized void changed(String resource) {
        changes.merge(resource, 1L, Long::sum);
    }

    synchronized void listed(String resource, String listBody) {
        String version = JSON.readTree(listBody).path("metadata").path("resourceVersion").asString("");
        changesAtList.put(resource + "@" + version, changes.getOrDefault(resource, 0L));
    }

    synchronized boolean missedSinceList(String resource, String version) {
        Long atList = changesAtList.get(resource + "@" + version);
        return atList != null && changes.getOrDefault(resource, 0L) > atList;
    }

    /** The resource a request path names: pods for /api/v1/namespaces/x/pods/y/status, nodes for /api/v1/nodes. */
    static String resource(String path) {
        String[] parts = path.split("\\?")[0].split("/");
        int first = "api".equals(parts[1]) ? 3 : 4; // /api/v1/… or /apis/group/version/…
        if (parts.length <= first) {
            return parts[parts.length - 1]; // discovery (/apis, /api/v1): no resource named
        }
        boolean namespaced = parts.length > first + 2 && "namespaces".equals(parts[first]);
        return namespaced ? parts[first + 2] : parts[first];
    }

    static String resourceVersion(String path) {
        Matcher m = VERSION.matcher(path);
        return m.find() ? m.group(1) : "";
    }
}
