package dev.makeroom.support.property;

import java.util.Arrays;
import java.util.Random;

/**
 * The choices one generated case is made of. Every {@link Gen} draws only through here, and each draw
 * is recorded as an unsigned offset into the range it was drawn from (0: the range's simplest end). A
 * fresh case draws from a seeded Random; a replayed one reads a record back, and reads 0 once the record
 * runs out. So a case is its record: the {@link Shrinker} shortens and lowers records instead of knowing
 * how any value is built, and every generator, however it maps, filters or nests, shrinks with it.
 */
public final class Choices {

    private final Random random; // null when replaying
    private final long[] replay;
    private long[] recorded = new long[16];
    private int size;

    private Choices(Random random, long[] replay) {
        this.random = random;
        this.replay = replay;
    }

    /** A fresh case drawn from {@code seed}. */
    public static Choices fresh(long seed) {
        return new Choices(new Random(seed), null);
    }

    /** The case a record makes (a shorter or lower record: a simpler case). */
    public static Choices replaying(long[] record) {
        return new Choices(null, record);
    }

    /** An offset in {@code [0, span]} (span unsigned; -1: any long), the ends now and then when fresh. */
    long offset(long span) {
        long offset;
        if (random == null) {
            offset = replayed(span);
        } else {
            int roll = random.nextInt(64);
            offset = roll == 0 ? 0 : roll == 1 ? span : uniform(span);
        }
        return record(offset);
    }

    /**
     * A size offset in {@code [0, span]}: fresh, smaller sizes more often than larger (a collection of
     * the largest size is slow and rarely the one that fails), the ends now and then.
     */
    int sizeOffset(int span) {
        long offset;
        if (random == null) {
            offset = replayed(span);
        } else {
            int roll = random.nextInt(16);
            long any = uniform(span);
            offset = roll == 0 ? 0 : roll == 1 ? span : roll < 8 && span > 0 ? any * any / span : any;
        }
        return (int) record(offset);
    }

    /**
     * The record so far: what replays this case, draw for draw. Trailing zeros are left off: a replay
     * reads 0 past the end anyway, so the shorter record is the same case (and the shrinker sees it is).
     */
    public long[] record() {
        int end = size;
        while (end > 0 && recorded[end - 1] == 0) {
            end--;
        }
        return Arrays.copyOf(recorded, end);
    }

    private long replayed(long span) {
        long offset = size < replay.length ? replay[size] : 0;
        return span == -1 || Long.compareUnsigned(offset, span) <= 0 ? offset : Long.remainderUnsigned(offset, span + 1);
    }

    private long uniform(long span) {
        if (span == -1) {
            return random.nextLong();
        }
        if (span >= 0 && span < Long.MAX_VALUE) {
            return random.nextLong(span + 1);
        }
        long offset;
        do {
            offset = random.nextLong();
        } while (Long.compareUnsigned(offset, span) > 0);
        return offset;
    }

    private long record(long offset) {
        if (size == recorded.length) {
            recorded = Arrays.copyOf(recorded, size * 2);
        }
        recorded[size++] = offset;
        return offset;
    }
}
