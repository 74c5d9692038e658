package dev.makeroom.web.json;

import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamFactory;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * A parser's tokens with every object's keys checked for one given twice, as Jackson's strict
 * duplicate detection checks them, but without its set per object: Jackson's check allocates a
 * HashSet for every object of more than two keys, which for a preempt body of whole victim pods
 * (thousands of small objects, read only to be skipped) came to nearly three times the body's size
 * in garbage. Here the keys of each object open on the path are kept in an array reused for the
 * next object at that depth, compared one by one (keys are few, and Jackson hands out each name as
 * one shared String, so most comparisons are by identity); an object past {@link #LINEAR} keys moves
 * to a set, so no body can make the check quadratic.
 */
final class UniqueKeyTokens {

    private static final int LINEAR = 16;

    private JsonParser parser;
    // per open structure (objects and arrays alike, so that every end token closes one)
    private String[][] keys = new String[8][];
    private int[] counts = new int[8];
    private Set<String>[] large = newSets(8);
    private int depth;

    UniqueKeyTokens(JsonParser parser) {
        this.parser = parser;
    }

    /** This checker, emptied, for another parser: a thread reading body after body keeps one. */
    UniqueKeyTokens on(JsonParser next) {
        for (int d = 0; d < depth; d++) {
            large[d] = null;
        }
        depth = 0;
        parser = next;
        return this;
    }

    /** The next token; a key its object already holds is bad input. */
    JsonToken next() {
        JsonToken token = parser.nextToken();
        if (token == null) {
            return null;
        }
        switch (token) {
            case START_OBJECT, START_ARRAY -> open();
            case END_OBJECT, END_ARRAY -> depth--;
            case PROPERTY_NAME -> add(parser.currentName());
            default -> {
            }
        }
        return token;
    }

    /** Walks past the value the parser is on (to its last token), checking its keys. */
    void skip() {
        JsonToken current = parser.currentToken();
        if (current == null || !current.isStructStart()) {
            return;
        }
        for (int outside = depth - 1; depth > outside; ) {
            nextInside();
        }
    }

    /**
     * The value the parser is on, written out again as UTF-8 JSON by {@code factory} (numbers
     * exactly as given), its keys checked; the parser is left on its last token. A scalar is kept
     * as an empty non-object: only its kind matters.
     */
    RawJson copy(TokenStreamFactory factory) {
        JsonToken start = parser.currentToken();
        if (!start.isStructStart()) {
            return new RawJson(new byte[0], 0, 0, false);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try (JsonGenerator generator = factory.createGenerator(out)) {
            generator.copyCurrentEventExact(parser);
            for (int outside = depth - 1; depth > outside; ) {
                nextInside();
                generator.copyCurrentEventExact(parser);
            }
        }
        return new RawJson(out.toByteArray(), 0, out.size(), start == JsonToken.START_OBJECT);
    }

    /** The next token inside an open value (Jackson refuses a body that ends there; so does this). */
    private void nextInside() {
        if (next() == null) {
            throw new BadRequestException("malformed JSON: the body ends inside a value");
        }
    }

    private void open() {
        if (depth == counts.length) {
            keys = Arrays.copyOf(keys, 2 * depth);
            counts = Arrays.copyOf(counts, 2 * depth);
            Set<String>[] grown = newSets(2 * depth);
            System.arraycopy(large, 0, grown, 0, depth);
            large = grown;
        }
        counts[depth] = 0;
        large[depth] = null;
        depth++;
    }

    private void add(String key) {
        int d = depth - 1;
        if (large[d] != null) {
            if (!large[d].add(key)) {
                throw duplicate(key);
            }
            return;
        }
        String[] seen = keys[d];
        int count = counts[d];
        for (int i = 0; i < count; i++) {
            if (seen[i].equals(key)) {
                throw duplicate(key);
            }
        }
        if (count == LINEAR) {
            large[d] = new HashSet<>(Arrays.asList(seen).subList(0, count));
            large[d].add(key);
            return;
        }
        if (seen == null || count == seen.length) {
            seen = keys[d] = seen == null ? new String[4] : Arrays.copyOf(seen, LINEAR);
        }
        seen[count] = key;
        counts[d] = count + 1;
    }

    private static BadRequestException duplicate(String key) {
        return new BadRequestException("malformed JSON: Duplicate Object property \"" + key + "\"");
    }

    @SuppressWarnings("unchecked")
    private static Set<String>[] newSets(int n) {
        return (Set<String>[]) new Set<?>[n];
    }
}
