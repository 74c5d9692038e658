package dev.makeroom.web;

import java.nio.charset.StandardCharsets;

/**
 * One JSON value exactly as it arrived: a range of the request body's UTF-8 bytes. Kept raw so a
 * node object can be echoed back without building and re-serialising a tree of it, and so the pod
 * is parsed once, by fabric8, rather than twice.
 */
record RawJson(byte[] source, int from, int to, boolean isObject) {

    int length() {
        return to - from;
    }

    String text() {
        return new String(source, from, to - from, StandardCharsets.UTF_8);
    }
}
