package dev.makeroom.web.json;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * An answer's bytes as written, in slices of arrays: what {@link JsonOut} wrote itself, and large
 * raw values left where they arrived (a filter answer echoes up to 25 MB of node objects straight
 * from the request body). Sent slice by slice ({@link AnswerBytesConverter}), never copied whole.
 */
public record AnswerBytes(List<Slice> slices) {

    /** Bytes {@code from} (inclusive) to {@code to} (exclusive) of an array no one changes any more. */
    record Slice(byte[] bytes, int from, int to) {
    }

    // by index, not an iterator: these run on every filter and prioritize answer

    public long length() {
        long length = 0;
        for (int i = 0; i < slices.size(); i++) {
            length += slices.get(i).to() - slices.get(i).from();
        }
        return length;
    }

    public void writeTo(OutputStream out) throws IOException {
        for (int i = 0; i < slices.size(); i++) {
            Slice slice = slices.get(i);
            out.write(slice.bytes(), slice.from(), slice.to() - slice.from());
        }
    }

    /** The answer in one array: for tests and callers that want a plain array. */
    byte[] toByteArray() {
        byte[] all = new byte[Math.toIntExact(length())];
        int at = 0;
        for (Slice slice : slices) {
            System.arraycopy(slice.bytes(), slice.from(), all, at, slice.to() - slice.from());
            at += slice.to() - slice.from();
        }
        return all;
    }
}
