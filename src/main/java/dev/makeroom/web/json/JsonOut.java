package dev.makeroom.web.json;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A growing UTF-8 buffer for writing the few fixed answer shapes of filter and prioritize directly:
 * thousands of names and reasons, and raw node objects copied through. Only strings need care;
 * they are escaped as RFC 8259 requires (quote, backslash, control characters), and a lone
 * surrogate, which UTF-8 cannot carry, is written as its \\u escape.
 */
final class JsonOut {

    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /** What a kept buffer starts with, and the most it keeps after an answer that grew it further. */
    static final int KEPT_BUFFER = 64 * 1024;

    /** Raw ranges this long are sent from where they are rather than copied. */
    static final int KEPT_IN_PLACE = 64 * 1024;

    private byte[] buffer;
    private int size;
    // What was written before the last range kept in place: slices of earlier buffers (growing
    // copies the buffer, so a slice holds the array it was written in) and of the sources.
    private final List<AnswerBytes.Slice> slices = new ArrayList<>();
    private int sliceStart;

    JsonOut(int expectedBytes) {
        buffer = new byte[Math.max(64, expectedBytes)];
    }

    /** JSON syntax or a literal; the caller passes ASCII only. */
    JsonOut ascii(String text) {
        ensure(text.length());
        for (int i = 0; i < text.length(); i++) {
            buffer[size++] = (byte) text.charAt(i);
        }
        return this;
    }

    /** One ASCII character of JSON syntax. */
    JsonOut ascii(char c) {
        ensure(1);
        buffer[size++] = (byte) c;
        return this;
    }

    JsonOut raw(RawJson value) {
        return raw(value.source(), value.from(), value.length());
    }

    /**
     * Bytes already valid JSON, e.g. a string encoded before. A large range is not copied but kept
     * as a slice of {@code source}, which must then stay as it is until the answer is sent (a
     * request body does).
     */
    JsonOut raw(byte[] source, int from, int length) {
        if (length >= KEPT_IN_PLACE) {
            slices.add(new AnswerBytes.Slice(buffer, sliceStart, size));
            slices.add(new AnswerBytes.Slice(source, from, from + length));
            sliceStart = size;
            return this;
        }
        ensure(length);
        System.arraycopy(source, from, buffer, size, length);
        size += length;
        return this;
    }

    /** Writes again {@code length} bytes this buffer already holds at {@code from}. */
    JsonOut repeat(int from, int length) {
        return raw(buffer, from, length);
    }

    /** Where the next byte goes in this buffer (a raw range kept in place does not move it). */
    int size() {
        return size;
    }

    /** A decimal integer, written digit by digit: no String per number (a prioritize answer has hundreds). */
    JsonOut number(long value) {
        if (value == Long.MIN_VALUE) {
            return ascii(Long.toString(value));
        }
        ensure(20);
        if (value < 0) {
            buffer[size++] = '-';
            value = -value;
        }
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        for (int i = size + digits - 1; i >= size; i--) {
            buffer[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        size += digits;
        return this;
    }

    JsonOut string(String text) {
        ensure(text.length() * 6 + 2); // the worst case: every char a six-byte escape
        buffer[size++] = '"';
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                if (c < 0x20 || c == '"' || c == '\\') {
                    escape(c);
                } else {
                    buffer[size++] = (byte) c;
                }
            } else if (c < 0x800) {
                buffer[size++] = (byte) (0xC0 | c >> 6);
                buffer[size++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, text.charAt(++i));
                buffer[size++] = (byte) (0xF0 | cp >> 18);
                buffer[size++] = (byte) (0x80 | cp >> 12 & 0x3F);
                buffer[size++] = (byte) (0x80 | cp >> 6 & 0x3F);
                buffer[size++] = (byte) (0x80 | cp & 0x3F);
            } else if (Character.isSurrogate(c)) {
                escape(c);
            } else {
                buffer[size++] = (byte) (0xE0 | c >> 12);
                buffer[size++] = (byte) (0x80 | c >> 6 & 0x3F);
                buffer[size++] = (byte) (0x80 | c & 0x3F);
            }
        }
        buffer[size++] = '"';
        return this;
    }

    private void escape(char c) {
        buffer[size++] = '\\';
        switch (c) {
            case '"' -> buffer[size++] = '"';
            case '\\' -> buffer[size++] = '\\';
            case '\n' -> buffer[size++] = 'n';
            case '\r' -> buffer[size++] = 'r';
            case '\t' -> buffer[size++] = 't';
            default -> {
                buffer[size++] = 'u';
                buffer[size++] = HEX[c >> 12 & 0xF];
                buffer[size++] = HEX[c >> 8 & 0xF];
                buffer[size++] = HEX[c >> 4 & 0xF];
                buffer[size++] = HEX[c & 0xF];
            }
        }
    }

    private void ensure(int more) {
        if (size + more > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + more));
        }
    }

    /**
     * Empties this buffer to write the next answer into it, keeping its array: a thread that answers
     * call after call then writes every answer into the same memory. What an earlier answer() returned
     * must have been sent by then.
     */
    JsonOut reset() {
        if (buffer.length > 16 * KEPT_BUFFER) { // one huge answer (node objects echoed): not kept for every call after
            buffer = new byte[KEPT_BUFFER];
        }
        size = 0;
        sliceStart = 0;
        slices.clear();
        return this;
    }

    /** Room for {@code bytes} more, made now: what follows is then written without growing the buffer. */
    JsonOut reserve(int bytes) {
        ensure(bytes);
        return this;
    }

    /** What was written, without a copy; nothing may be written after. */
    AnswerBytes answer() {
        AnswerBytes.Slice last = new AnswerBytes.Slice(buffer, sliceStart, size);
        if (slices.isEmpty()) { // nearly every answer: one slice
            return new AnswerBytes(List.of(last));
        }
        List<AnswerBytes.Slice> all = new ArrayList<>(slices);
        all.add(last);
        return new AnswerBytes(all);
    }
}
