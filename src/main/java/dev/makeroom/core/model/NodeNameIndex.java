package dev.makeroom.core.model;

/**
 * Node names to their dense index, laid out for speed: an open-addressing table of hashes
 * (load at most one half) and all names in one char array. A name read from a request is
 * matched from the parser's characters, without making a String of it first.
 */
final class NodeNameIndex {

    private final String[] names;
    private final char[] nameChars;
    private final int[] nameStart; // nameStart[i]..nameStart[i + 1]: name i in nameChars
    private final int[] slots;     // index + 1 per slot, 0 when empty; size a power of two
    private final int[] slotHashes;
    // the row that followed each row in the last request that listed it: the scheduler lists its nodes in
    // one fixed order (name order where its informer listed them sorted), so the next name is usually there.
    // Written by every request thread without locking: a value is only ever a guess, checked before use.
    private final int[] successor;

    NodeNameIndex(String[] names) {
        this.names = names;
        nameStart = new int[names.length + 1];
        for (int i = 0; i < names.length; i++) {
            nameStart[i + 1] = nameStart[i] + names[i].length();
        }
        nameChars = new char[nameStart[names.length]];
        for (int i = 0; i < names.length; i++) {
            names[i].getChars(0, names[i].length(), nameChars, nameStart[i]);
        }
        successor = new int[names.length];
        for (int i = 0; i < names.length; i++) {
            successor[i] = i + 1; // until a request says otherwise: name order
        }
        int size = Integer.highestOneBit(Math.max(2, names.length) * 2 - 1) * 2;
        slots = new int[size];
        slotHashes = new int[size];
        for (int i = 0; i < names.length; i++) {
            int hash = mix(names[i].hashCode());
            int slot = hash & (size - 1);
            while (slots[slot] != 0) {
                slot = (slot + 1) & (size - 1);
            }
            slots[slot] = i + 1;
            slotHashes[slot] = hash;
        }
    }

    int indexOf(String name) {
        int hash = mix(name.hashCode());
        int mask = slots.length - 1;
        for (int slot = hash & mask; slots[slot] != 0; slot = (slot + 1) & mask) {
            int index = slots[slot] - 1;
            if (slotHashes[slot] == hash && (names[index] == name || names[index].equals(name))) {
                return index;
            }
        }
        return -1;
    }

    /** The index of the name given as characters, or -1. */
    int indexOf(char[] chars, int offset, int length) {
        int h = 0;
        for (int k = offset; k < offset + length; k++) {
            h = 31 * h + chars[k]; // String.hashCode's definition
        }
        int hash = mix(h);
        int mask = slots.length - 1;
        for (int slot = hash & mask; slots[slot] != 0; slot = (slot + 1) & mask) {
            int index = slots[slot] - 1;
            if (slotHashes[slot] == hash && sameChars(index, chars, offset, length)) {
                return index;
            }
        }
        return -1;
    }

    /**
     * As {@link #indexOf(char[], int, int)}, for the name that follows row {@code previous} (-1: none) in
     * a request: the row that followed it last time is tried first, and what is found is remembered.
     */
    int indexOfNext(char[] chars, int offset, int length, int previous) {
        if (previous < 0 || previous >= names.length) {
            return indexOf(chars, offset, length);
        }
        int guess = successor[previous];
        if (guess < names.length && sameChars(guess, chars, offset, length)) {
            return guess;
        }
        int found = indexOf(chars, offset, length);
        if (found >= 0) {
            successor[previous] = found;
        }
        return found;
    }

    /** The row {@link #indexOfNext} tries first after {@code previous}. */
    int successorOf(int previous) {
        return successor[previous];
    }

    /** A plain loop: names are short, and Arrays.equals pays for range checks and a vectorised setup per call. */
    private boolean sameChars(int index, char[] chars, int offset, int length) {
        int start = nameStart[index];
        if (nameStart[index + 1] - start != length) {
            return false;
        }
        for (int k = 0; k < length; k++) {
            if (nameChars[start + k] != chars[offset + k]) {
                return false;
            }
        }
        return true;
    }

    String name(int index) {
        return names[index];
    }

    /** Hash codes of similar names differ in few bits; spread them before taking the low ones. */
    private static int mix(int hash) {
        int h = hash * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
