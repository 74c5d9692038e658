package dev.makeroom.support.property;

/** Longs in a closed range; any long shrinks toward 0, a range toward its low end. */
public final class LongGen implements Gen<Long> {

    private final long min;
    private final long max;

    LongGen(long min, long max) {
        if (max < min) {
            throw new IllegalArgumentException("longs " + min + ".." + max);
        }
        this.min = min;
        this.max = max;
    }

    public LongGen between(long low, long high) {
        return new LongGen(low, high);
    }

    @Override
    public Long draw(Choices choices) {
        if (min == Long.MIN_VALUE && max == Long.MAX_VALUE) {
            long offset = choices.offset(-1);
            return (offset >>> 1) ^ -(offset & 1); // 0, -1, 1, -2, …: small offsets are small longs
        }
        return min + choices.offset(max - min);
    }
}
