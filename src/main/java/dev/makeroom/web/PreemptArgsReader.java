package dev.makeroom.web;

import dev.makeroom.core.preemption.Candidate;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads a preempt body in one streaming pass: the pod as a raw range of the body (fabric8 reads it
 * once), and each candidate node with the UIDs of the victims the scheduler named there, from
 * {@code NodeNameToMetaVictims} or, when that is absent or null, {@code NodeNameToVictims}. Only the
 * UIDs become Strings: a body of 500 nodes is read without a record per victim. Keys match
 * case-insensitively and unknown keys are skipped, as Go's decoder does; a value of the wrong kind
 * is a {@link BadRequestException} naming where it is.
 */
final class PreemptArgsReader {

    private static final String META = "NodeNameToMetaVictims";
    private static final String FULL = "NodeNameToVictims";

    private final JsonParser parser;
    private final byte[] body;

    /** The pod (null when absent or null) and the candidates (null when neither map is given). */
    record PreemptArgs(RawJson pod, List<Candidate> candidates) {
    }

    private PreemptArgsReader(JsonParser parser, byte[] body) {
        this.parser = parser;
        this.body = body;
    }

    static PreemptArgs read(JsonParser parser, byte[] body) {
        return new PreemptArgsReader(parser, body).args();
    }

    private PreemptArgs args() {
        WireTokens.startBody(parser);
        RawJson pod = null;
        List<Candidate> meta = null;
        List<Candidate> full = null;
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
            String key = parser.currentName();
            JsonToken value = parser.nextToken();
            if (key.equalsIgnoreCase("Pod")) {
                pod = value == JsonToken.VALUE_NULL ? null : raw();
            } else if (key.equalsIgnoreCase(META)) {
                meta = value == JsonToken.VALUE_NULL ? null : candidates(META, true);
            } else if (key.equalsIgnoreCase(FULL)) {
                full = value == JsonToken.VALUE_NULL ? null : candidates(FULL, false);
            } else {
                parser.skipChildren();
            }
        }
        WireTokens.endBody(parser);
        return new PreemptArgs(pod, meta != null ? meta : full);
    }

    /** A map of node name to victims; {@code meta}: victims as {@code {"UID": …}}, else as pods' {@code metadata.uid}. */
    private List<Candidate> candidates(String map, boolean meta) {
        expect(JsonToken.START_OBJECT, map, "an object of node names to victims");
        List<Candidate> candidates = new ArrayList<>();
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
            String node = parser.currentName();
            String at = map + "." + node;
            if (parser.nextToken() == JsonToken.VALUE_NULL) {
                candidates.add(new Candidate(node, List.of(), 0));
                continue;
            }
            expect(JsonToken.START_OBJECT, at, "an object with Pods and NumPDBViolations");
            List<String> uids = List.of();
            long violations = 0;
            while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
                String key = parser.currentName();
                JsonToken value = parser.nextToken();
                if (key.equalsIgnoreCase("Pods")) {
                    uids = value == JsonToken.VALUE_NULL ? List.of() : uids(at + ".Pods", meta);
                } else if (key.equalsIgnoreCase("NumPDBViolations")) {
                    violations = count(at + ".NumPDBViolations");
                } else {
                    parser.skipChildren();
                }
            }
            candidates.add(new Candidate(node, uids, violations));
        }
        return candidates;
    }

    private List<String> uids(String at, boolean meta) {
        expect(JsonToken.START_ARRAY, at, "an array of victims");
        List<String> uids = new ArrayList<>();
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
            String where = at + "[" + uids.size() + "]";
            String uid = null;
            if (t == JsonToken.START_OBJECT) {
                uid = meta ? stringIn("UID", where) : uidInMetadata(where);
            } else if (t != JsonToken.VALUE_NULL) {
                throw invalid(where, "an object");
            }
            if (uid == null || uid.isBlank()) {
                throw new BadRequestException(where + (meta ? " has no UID" : " has no metadata.uid"));
            }
            uids.add(uid);
        }
        return uids;
    }

    /** A victim pod's {@code metadata.uid}; the rest of the pod is skipped. */
    private String uidInMetadata(String where) {
        String uid = null;
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
            boolean metadata = parser.currentName().equalsIgnoreCase("metadata");
            JsonToken value = parser.nextToken();
            if (metadata && value == JsonToken.START_OBJECT) {
                uid = stringIn("uid", where + ".metadata");
            } else if (metadata && value != JsonToken.VALUE_NULL) {
                throw invalid(where + ".metadata", "an object");
            } else {
                parser.skipChildren();
            }
        }
        return uid;
    }

    /** The string under {@code key} (any case) in the current object, walked to its end; null when absent or null. */
    private String stringIn(String key, String where) {
        String found = null;
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
            boolean wanted = parser.currentName().equalsIgnoreCase(key);
            JsonToken value = parser.nextToken();
            if (!wanted) {
                parser.skipChildren();
            } else if (value == JsonToken.VALUE_STRING) {
                found = parser.getString();
            } else if (value != JsonToken.VALUE_NULL) {
                throw invalid(where + "." + key, "a string");
            }
        }
        return found;
    }

    /** A whole number; null counts as 0, as Go leaves an int it was given null for. */
    private long count(String at) {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_NULL) {
            return 0;
        }
        if (token != JsonToken.VALUE_NUMBER_INT) {
            throw invalid(at, "a whole number");
        }
        return parser.getLongValue();
    }

    private void expect(JsonToken kind, String at, String what) {
        if (parser.currentToken() != kind) {
            throw invalid(at, what);
        }
    }

    private BadRequestException invalid(String at, String what) {
        return new BadRequestException("invalid request at " + at + ": expected " + what + ", found "
                + WireTokens.kindOf(parser.currentToken()));
    }

    /** The current value as a range of the body; the parser is left on its last token. */
    private RawJson raw() {
        return RawJson.current(parser, body);
    }
}
