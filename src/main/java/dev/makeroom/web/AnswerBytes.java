package dev.makeroom.web;

import java.util.Arrays;

/**
 * An answer's bytes as written: the first {@code length} bytes of {@code buffer}. Sent as they are
 * ({@link AnswerBytesConverter}), so a filter answer echoing 25 MB of node objects is not copied
 * once more into an array of its exact size.
 */
record AnswerBytes(byte[] buffer, int length) {

    /** The answer in an array of its own size: for tests and callers that want a plain array. */
    byte[] toByteArray() {
        return Arrays.copyOf(buffer, length);
    }
}
