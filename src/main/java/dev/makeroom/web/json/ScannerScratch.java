package dev.makeroom.web.json;

import java.util.Arrays;

/**
 * What {@link NodesArgsScanner} writes as it walks a body: the keys of every object still open, as a
 * stack (where each starts and ends in the body, its length in characters, whether it has escapes),
 * and a node name's characters to look up. A thread that serves filter and prioritize keeps one from
 * body to body ({@link VerbBuffers}), so a scan allocates nothing for them.
 */
final class ScannerScratch {

    int[] keyStart = new int[64];
    int[] keyEnd = new int[64];
    int[] keyLength = new int[64];
    boolean[] keyEscaped = new boolean[64];
    private char[] chars = new char[64];

    /** Room for one more key than {@code keys}. */
    void roomForKey(int keys) {
        if (keys == keyStart.length) {
            keyStart = Arrays.copyOf(keyStart, keys * 2);
            keyEnd = Arrays.copyOf(keyEnd, keys * 2);
            keyLength = Arrays.copyOf(keyLength, keys * 2);
            keyEscaped = Arrays.copyOf(keyEscaped, keys * 2);
        }
    }

    /** The ASCII bytes {@code from..from+length} of {@code body} as characters, in an array kept for the next. */
    char[] asciiChars(byte[] body, int from, int length) {
        if (chars.length < length) {
            chars = new char[Math.max(length, chars.length * 2)];
        }
        for (int k = 0; k < length; k++) {
            chars[k] = (char) body[from + k]; // ASCII: each byte is its char
        }
        return chars;
    }
}
