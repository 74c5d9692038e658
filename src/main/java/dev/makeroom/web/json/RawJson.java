package dev.makeroom.web.json;

import java.nio.charset.StandardCharsets;

/**
 * One JSON value as UTF-8 bytes: a range of a request body held whole (node objects, kept raw so
 * they can be echoed back without building and re-serialising a tree of them), or a value copied
 * out of a body read as a stream (the preempt pod, {@link UniqueKeyTokens#copy}), for fabric8 to
 * read once.
 */
public record RawJson(byte[] source, int from, int to, boolean isObject) {

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

    public String text() {
        return new String(source, from, to - from, StandardCharsets.UTF_8);
    }
}
