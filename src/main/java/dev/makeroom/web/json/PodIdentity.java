package dev.makeroom.web.json;

import java.nio.charset.StandardCharsets;

/**
 * A pod's {@code metadata.uid} and {@code metadata.resourceVersion}, read from its JSON without reading
 * the rest: the scheduler sends a pod that makeroom's view has already seen at that very version (its
 * creation was a watch event moments before), and the view's translation of it is then the translation
 * of the body's pod. Only plain values are read (no escapes, keys spelled as the API server writes them);
 * anything else is left to the full translation ({@link #of} returns null), so nothing read here can be
 * wrong, only absent.
 */
public record PodIdentity(String uid, long resourceVersion) {

    private static final byte[] METADATA = "metadata".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] UID = "uid".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] RESOURCE_VERSION = "resourceVersion".getBytes(StandardCharsets.US_ASCII);

    /** The identity of the pod object in {@code json[from, to)}, or null when it does not state both plainly. */
    public static PodIdentity of(byte[] json, int from, int to) {
        Scan scan = new Scan(json, from, to);
        if (!scan.skipWhitespace() || json[scan.pos] != '{') {
            return null;
        }
        scan.pos++;
        // the top-level keys: find metadata, skip every other value
        while (scan.nextKey()) {
            boolean isMetadata = scan.keyIs(METADATA);
            if (!scan.colon() || !scan.skipWhitespace()) {
                return null;
            }
            if (isMetadata) {
                return json[scan.pos] == '{' ? scan.identityIn() : null;
            }
            if (!scan.skipValue()) {
                return null;
            }
        }
        return null;
    }

    /** A cursor over the bytes; every method returns false (or null) where the JSON is not what it expects. */
    private static final class Scan {
        private final byte[] json;
        private final int to;
        private int pos;
        private int keyFrom;
        private int keyTo;

        Scan(byte[] json, int from, int to) {
            this.json = json;
            this.pos = from;
            this.to = Math.min(to, json.length);
        }

        boolean skipWhitespace() {
            while (pos < to && (json[pos] == ' ' || json[pos] == '\n' || json[pos] == '\r' || json[pos] == '\t')) {
                pos++;
            }
            return pos < to;
        }

        /** Past a comma if one comes, onto the next key of the object: false at its end or on anything else. */
        boolean nextKey() {
            if (!skipWhitespace()) {
                return false;
            }
            if (json[pos] == ',') {
                pos++;
                if (!skipWhitespace()) {
                    return false;
                }
            }
            if (json[pos] != '"') {
                return false;
            }
            keyFrom = pos + 1;
            if (!skipString()) {
                return false;
            }
            keyTo = pos - 1;
            return true;
        }

        boolean keyIs(byte[] name) {
            if (keyTo - keyFrom != name.length) {
                return false;
            }
            for (int i = 0; i < name.length; i++) {
                if (json[keyFrom + i] != name[i]) {
                    return false;
                }
            }
            return true;
        }

        boolean colon() {
            if (!skipWhitespace() || json[pos] != ':') {
                return false;
            }
            pos++;
            return true;
        }

        /** Past a string (the cursor on its opening quote), escapes included. */
        boolean skipString() {
            for (pos++; pos < to; pos++) {
                if (json[pos] == '\\') {
                    pos++;
                } else if (json[pos] == '"') {
                    pos++;
                    return true;
                }
            }
            return false;
        }

        /** Past one value of any kind: strings read whole, brackets counted. */
        boolean skipValue() {
            if (!skipWhitespace()) {
                return false;
            }
            byte first = json[pos];
            if (first == '"') {
                return skipString();
            }
            if (first != '{' && first != '[') { // a number, true, false or null: up to what ends it
                while (pos < to && json[pos] != ',' && json[pos] != '}' && json[pos] != ']' && json[pos] != ' '
                        && json[pos] != '\n' && json[pos] != '\r' && json[pos] != '\t') {
                    pos++;
                }
                return pos < to;
            }
            int depth = 0;
            while (pos < to) {
                byte b = json[pos];
                if (b == '"') {
                    if (!skipString()) {
                        return false;
                    }
                    continue;
                }
                if (b == '{' || b == '[') {
                    depth++;
                } else if (b == '}' || b == ']') {
                    depth--;
                    if (depth == 0) {
                        pos++;
                        return true;
                    }
                }
                pos++;
            }
            return false;
        }

        /** uid and resourceVersion among metadata's keys (the cursor on its brace), both plain strings. */
        PodIdentity identityIn() {
            pos++;
            String uid = null;
            long version = -1;
            while (nextKey()) {
                boolean isUid = keyIs(UID);
                boolean isVersion = keyIs(RESOURCE_VERSION);
                if (!colon() || !skipWhitespace()) {
                    return null;
                }
                if (isUid || isVersion) {
                    int valueFrom = pos + 1;
                    if (json[pos] != '"' || !skipString()) {
                        return null;
                    }
                    int valueTo = pos - 1;
                    for (int i = valueFrom; i < valueTo; i++) {
                        if (json[i] == '\\') {
                            return null;
                        }
                    }
                    if (isUid) {
                        uid = new String(json, valueFrom, valueTo - valueFrom, StandardCharsets.UTF_8);
                    } else {
                        version = digits(valueFrom, valueTo);
                    }
                    if (uid != null && version >= 0) {
                        return uid.isEmpty() ? null : new PodIdentity(uid, version);
                    }
                } else if (!skipValue()) {
                    return null;
                }
            }
            return null;
        }

        /** A resourceVersion of decimal digits, or -1 (an empty or other one is not compared). */
        long digits(int from, int to) {
            if (to - from < 1 || to - from > 18) {
                return -1;
            }
            long value = 0;
            for (int i = from; i < to; i++) {
                if (json[i] < '0' || json[i] > '9') {
                    return -1;
                }
                value = value * 10 + json[i] - '0';
            }
            return value;
        }
    }
}
