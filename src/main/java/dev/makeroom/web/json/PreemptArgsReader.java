package dev.makeroom.web.json;

import dev.makeroom.core.model.NodeTable;
import dev.makeroom.core.preemption.Candidate;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads a preempt body in one streaming pass, from a stream or an array alike: the pod copied out as
 * JSON of its own (fabric8 reads it), and each candidate node with the UIDs of the victims the
 * scheduler named there, from {@code NodeNameToMetaVictims} or, when that is absent or null,
 * {@code NodeNameToVictims}. Only the UIDs become Strings: a body of 500 nodes is read without a
 * record per victim. A node the snapshot knows is named by the snapshot's own String, so every later
 * lookup of it is found by identity. The reader keeps where it is (map, node, victim) and spells the
 * path out only for an error, not for each of a thousand victims. Keys match case-insensitively and
 * unknown keys are skipped, as Go's decoder does; a value of the wrong kind is a
 * {@link BadRequestException} naming where it is.
 */
public final class PreemptArgsReader {

    private static final String META = "NodeNameToMetaVictims";
    private static final String FULL = "NodeNameToVictims";

    private final JsonParser parser;
    private final UniqueKeyTokens tokens; // the parser's tokens, every object's keys checked for duplicates
    private final TokenStreamFactory copier;
    private final NodeTable known;
    // where the reader is, for errors: the map, its node (or null), the victim (or -1)
    private String map;
    private String node;
    private int victim = -1;

    /** The pod (null when absent or null) and the candidates (null when neither map is given). */
    public record PreemptArgs(RawJson pod, List<Candidate> candidates) {
    }

    private PreemptArgsReader(JsonParser parser, TokenStreamFactory copier, NodeTable known) {
        this.parser = parser;
        this.tokens = new UniqueKeyTokens(parser);
        this.copier = copier;
        this.known = known;
    }

    /**
     * The body's arguments, from a parser that leaves duplicate keys to this reader
     * ({@link UniqueKeyTokens}); {@code copier} writes the pod out again, {@code known}: the
     * snapshot's nodes, whose names are read as its own Strings.
     */
    static PreemptArgs read(JsonParser parser, TokenStreamFactory copier, NodeTable known) {
        return new PreemptArgsReader(parser, copier, known).args();
    }

    private PreemptArgs args() {
        WireTokens.startBody(tokens.next());
        RawJson pod = null;
        List<Candidate> meta = null;
        List<Candidate> full = null;
        while (tokens.next() == JsonToken.PROPERTY_NAME) {
            String key = parser.currentName();
            JsonToken value = tokens.next();
            if (key.equalsIgnoreCase("Pod")) {
                pod = value == JsonToken.VALUE_NULL ? null : raw();
            } else if (key.equalsIgnoreCase(META)) {
                meta = value == JsonToken.VALUE_NULL ? null : candidates(META, true);
            } else if (key.equalsIgnoreCase(FULL)) {
                full = value == JsonToken.VALUE_NULL ? null : candidates(FULL, false);
            } else {
                tokens.skip();
            }
        }
        WireTokens.endBody(parser);
        return new PreemptArgs(pod, meta != null ? meta : full);
    }

    /** A map of node name to victims; {@code meta}: victims as {@code {"UID": …}}, else as pods' {@code metadata.uid}. */
    private List<Candidate> candidates(String name, boolean meta) {
        map = name;
        node = null;
        expect(JsonToken.START_OBJECT, "", "an object of node names to victims");
        List<Candidate> candidates = new ArrayList<>();
        while (tokens.next() == JsonToken.PROPERTY_NAME) {
            node = knownName(parser.currentName());
            victim = -1;
            if (tokens.next() == JsonToken.VALUE_NULL) {
                candidates.add(new Candidate(node, List.of(), 0));
                continue;
            }
            expect(JsonToken.START_OBJECT, "", "an object with Pods and NumPDBViolations");
            List<String> uids = List.of();
            long violations = 0;
            while (tokens.next() == JsonToken.PROPERTY_NAME) {
                String key = parser.currentName();
                JsonToken value = tokens.next();
                if (key.equalsIgnoreCase("Pods")) {
                    uids = value == JsonToken.VALUE_NULL ? List.of() : uids(meta);
                } else if (key.equalsIgnoreCase("NumPDBViolations")) {
                    violations = count(".NumPDBViolations");
                } else {
                    tokens.skip();
                }
            }
            candidates.add(new Candidate(node, uids, violations));
        }
        return candidates;
    }

    /** The snapshot's own String for a node it knows, else the name as read. */
    private String knownName(String name) {
        int row = known.indexOf(name);
        return row < 0 ? name : known.name(row);
    }

    private List<String> uids(boolean meta) {
        expect(JsonToken.START_ARRAY, ".Pods", "an array of victims");
        List<String> uids = new ArrayList<>();
        for (JsonToken t = tokens.next(); t != JsonToken.END_ARRAY; t = tokens.next()) {
            victim = uids.size();
            String uid = null;
            if (t == JsonToken.START_OBJECT) {
                uid = meta ? stringIn("UID", "") : uidInMetadata();
            } else if (t != JsonToken.VALUE_NULL) {
                throw invalid("", "an object");
            }
            if (uid == null || uid.isBlank()) {
                throw new BadRequestException(where("") + (meta ? " has no UID" : " has no metadata.uid"));
            }
            uids.add(uid);
        }
        victim = -1;
        return uids;
    }

    /** A victim pod's {@code metadata.uid}; the rest of the pod is skipped. */
    private String uidInMetadata() {
        String uid = null;
        while (tokens.next() == JsonToken.PROPERTY_NAME) {
            boolean metadata = parser.currentName().equalsIgnoreCase("metadata");
            JsonToken value = tokens.next();
            if (metadata && value == JsonToken.START_OBJECT) {
                uid = stringIn("uid", ".metadata");
            } else if (metadata && value != JsonToken.VALUE_NULL) {
                throw invalid(".metadata", "an object");
            } else {
                tokens.skip();
            }
        }
        return uid;
    }

    /**
     * The string under {@code key} (any case) in the current object, walked to its end; null when
     * absent or null. {@code in}: the object's path below the current victim, for errors.
     */
    private String stringIn(String key, String in) {
        String found = null;
        while (tokens.next() == JsonToken.PROPERTY_NAME) {
            boolean wanted = parser.currentName().equalsIgnoreCase(key);
            JsonToken value = tokens.next();
            if (!wanted) {
                tokens.skip();
            } else if (value == JsonToken.VALUE_STRING) {
                found = parser.getString();
            } else if (value != JsonToken.VALUE_NULL) {
                throw invalid(in + "." + key, "a string");
            }
        }
        return found;
    }

    /** A whole number; null counts as 0, as Go leaves an int it was given null for. */
    private long count(String below) {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_NULL) {
            return 0;
        }
        if (token != JsonToken.VALUE_NUMBER_INT) {
            throw invalid(below, "a whole number");
        }
        return parser.getLongValue();
    }

    private void expect(JsonToken kind, String below, String what) {
        if (parser.currentToken() != kind) {
            throw invalid(below, what);
        }
    }

    /** An error at {@code below} the reader's place. */
    private BadRequestException invalid(String below, String what) {
        return new BadRequestException("invalid request at " + where(below) + ": expected " + what + ", found "
                + WireTokens.kindOf(parser.currentToken()));
    }

    /** The path of the reader's place, then {@code below}: {@code NodeNameToVictims.node-7.Pods[1].metadata}. */
    private String where(String below) {
        return map + (node == null ? "" : "." + node) + (victim < 0 ? "" : ".Pods[" + victim + "]") + below;
    }

    /** The current value as JSON of its own; the parser is left on its last token. */
    private RawJson raw() {
        return tokens.copy(copier);
    }
}
