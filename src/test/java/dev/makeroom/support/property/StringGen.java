package dev.makeroom.support.property;

import java.util.ArrayList;
import java.util.List;

/**
 * Strings of lengths in a range, of the characters chosen (ranges and single characters; none chosen:
 * any char, lone surrogates included). They shrink toward short strings of the first characters chosen.
 */
public final class StringGen implements Gen<String> {

    private final List<char[]> ranges; // inclusive [from, to] pairs
    private final int minLength;
    private final int maxLength;

    StringGen() {
        this(List.of(), 0, ListGen.DEFAULT_MAX_SIZE);
    }

    private StringGen(List<char[]> ranges, int minLength, int maxLength) {
        this.ranges = ranges;
        this.minLength = minLength;
        this.maxLength = maxLength;
    }

    public StringGen withCharRange(char from, char to) {
        List<char[]> more = new ArrayList<>(ranges);
        more.add(new char[] {from, to});
        return new StringGen(more, minLength, maxLength);
    }

    public StringGen withChars(char... chars) {
        StringGen gen = this;
        for (char c : chars) {
            gen = gen.withCharRange(c, c);
        }
        return gen;
    }

    public StringGen withChars(CharSequence chars) {
        return withChars(chars.toString().toCharArray());
    }

    public StringGen alpha() {
        return withCharRange('a', 'z').withCharRange('A', 'Z');
    }

    public StringGen numeric() {
        return withCharRange('0', '9');
    }

    /** Any char at all. */
    public StringGen all() {
        return withCharRange(Character.MIN_VALUE, Character.MAX_VALUE);
    }

    public StringGen ofMinLength(int length) {
        return new StringGen(ranges, length, Math.max(length, maxLength));
    }

    public StringGen ofMaxLength(int length) {
        return new StringGen(ranges, Math.min(minLength, length), length);
    }

    public StringGen ofLength(int length) {
        return new StringGen(ranges, length, length);
    }

    @Override
    public String draw(Choices choices) {
        List<char[]> from = ranges.isEmpty() ? List.<char[]>of(new char[] {Character.MIN_VALUE, Character.MAX_VALUE}) : ranges;
        int width = 0;
        for (char[] range : from) {
            width += range[1] - range[0] + 1;
        }
        int length = minLength + choices.sizeOffset(maxLength - minLength);
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            long pick = choices.offset(width - 1);
            for (char[] range : from) {
                int size = range[1] - range[0] + 1;
                if (pick < size) {
                    text.append((char) (range[0] + pick));
                    break;
                }
                pick -= size;
            }
        }
        return text.toString();
    }
}
