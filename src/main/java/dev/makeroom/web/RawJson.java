package dev.makeroom.web;

import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamFactory;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * One JSON value exactly as it arrived: a range of the request body's UTF-8 bytes. Kept raw so a
 * node object can be echoed back without building and re-serialising a tree of it, and so the pod
 * is parsed once, by fabric8, rather than twice.
 */
record RawJson(byte[] source, int from, int to, boolean isObject) {

    /**
     * The value the parser is on, as a range of {@code body}; the parser is left on its last token. A
     * scalar where an object belongs is kept as an empty non-object: only its kind matters.
     */
    static RawJson current(JsonParser parser, byte[] body) {
        JsonToken token = parser.currentToken();
        long from = parser.currentTokenLocation().getByteOffset();
        parser.skipChildren();
        if (!token.isStructStart()) {
            return new RawJson(body, 0, 0, false);
        }
        return range(body, from, parser.currentLocation().getByteOffset(), token == JsonToken.START_OBJECT);
    }

    /**
     * The value the parser is on, written out again as UTF-8 JSON by {@code factory}: for a body read
     * as a stream, which keeps no bytes behind it. The parser is left on its last token, as
     * {@link #current} leaves it; a scalar is kept as an empty non-object.
     */
    static RawJson copied(JsonParser parser, TokenStreamFactory factory) {
        JsonToken token = parser.currentToken();
        if (!token.isStructStart()) {
            return new RawJson(new byte[0], 0, 0, false);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try (JsonGenerator generator = factory.createGenerator(out)) {
            generator.copyCurrentStructure(parser);
        }
        return new RawJson(out.toByteArray(), 0, out.size(), token == JsonToken.START_OBJECT);
    }

    /** Bytes {@code from} to {@code to} of {@code body}, checked: offsets are bytes only when the body is UTF-8. */
    static RawJson range(byte[] body, long from, long to, boolean isObject) {
        if (from < 0 || to < from || to > body.length) {
            throw new BadRequestException("request body must be UTF-8 JSON");
        }
        return new RawJson(body, (int) from, (int) to, isObject);
    }

    int length() {
        return to - from;
    }

    String text() {
        return new String(source, from, to - from, StandardCharsets.UTF_8);
    }
}
