package dev.makeroom.support.property;

import java.util.Arrays;
import java.util.Optional;
import java.util.function.Function;

/**
 * Shrinks a failing case by editing its record of choices ({@link Choices}): it deletes runs of
 * choices (fewer elements, shorter lists), then lowers each choice toward 0 (smaller numbers, earlier
 * picks), then moves amount from a choice to one of the next few (so that [331, 348, 321] can become
 * [0, 500, 500] and then lose its 0), keeping any edit after which the property still fails the same way,
 * until no edit helps or
 * the budget is spent. The result is the smallest failing case it found, not always the smallest
 * there is.
 */
final class Shrinker {

    /** Replays a record: the choices the case drew when it fails as the original did, else empty. */
    private final Function<long[], Optional<long[]>> stillFails;
    private int budget;

    Shrinker(Function<long[], Optional<long[]>> stillFails, int budget) {
        this.stillFails = stillFails;
        this.budget = budget;
    }

    long[] shrink(long[] failing) {
        long[] best = failing;
        boolean progress = true;
        while (progress && budget > 0) {
            progress = false;
            for (int run = 8; run >= 1; run /= 2) {
                for (int at = best.length - run; at >= 0 && budget > 0; at = Math.min(at - 1, best.length - run)) {
                    long[] shorter = new long[best.length - run];
                    System.arraycopy(best, 0, shorter, 0, at);
                    System.arraycopy(best, at + run, shorter, at, best.length - at - run);
                    Optional<long[]> fails = tried(shorter, best);
                    if (fails.isPresent()) {
                        best = fails.get();
                        progress = true;
                    }
                }
            }
            for (int at = 0; at < best.length && budget > 0; at++) {
                long[] lowered = lowered(best, at);
                if (lowered != best) {
                    best = lowered;
                    progress = true;
                }
            }
            for (int from = 0; from < best.length && budget > 0; from++) {
                for (int to = from + 1; to < Math.min(best.length, from + 5) && budget > 0; to++) {
                    long[] moved = moved(best, from, to);
                    if (moved != best) {
                        best = moved;
                        progress = true;
                        break;
                    }
                }
            }
        }
        return best;
    }

    /** The record with as much as still fails moved from choice {@code from} to the later {@code to}. */
    private long[] moved(long[] record, int from, int to) {
        if (record[from] <= 0 || record[to] < 0) {
            return record; // zero, or offsets too large to add to
        }
        for (long amount = record[from]; amount > 0 && budget > 0; amount /= 2) {
            if (record[to] > Long.MAX_VALUE - amount) {
                continue;
            }
            long[] candidate = Arrays.copyOf(record, record.length);
            candidate[from] -= amount;
            candidate[to] += amount;
            Optional<long[]> fails = tried(candidate, record);
            if (fails.isPresent()) {
                return fails.get();
            }
        }
        return record;
    }

    /** The record with choice {@code at} as low as it can go and still fail (binary search toward 0). */
    private long[] lowered(long[] record, int at) {
        long failing = record[at];
        if (failing == 0) {
            return record;
        }
        long passing = -1; // below every offset: nothing lower known to pass yet
        long[] best = record;
        while (budget > 0 && Long.compareUnsigned(failing, passing + 1) > 0) {
            long probe = passing == -1 ? 0 : passing + Long.divideUnsigned(failing - passing, 2);
            long[] candidate = Arrays.copyOf(best, best.length);
            candidate[at] = probe;
            Optional<long[]> fails = tried(candidate, best);
            if (fails.isPresent()) {
                failing = probe;
                best = fails.get();
                if (best.length <= at) {
                    return best; // the lower choice made the case shorter: nothing left to lower here
                }
            } else {
                passing = probe;
            }
        }
        return best;
    }

    /** The candidate's record when it still fails and is simpler than {@code best} (so shrinking ends). */
    private Optional<long[]> tried(long[] candidate, long[] best) {
        budget--;
        return stillFails.apply(candidate).filter(drawn -> simpler(drawn, best));
    }

    /** Shorter, or as long and lower at the first choice that differs. */
    static boolean simpler(long[] a, long[] b) {
        if (a.length != b.length) {
            return a.length < b.length;
        }
        int differ = Arrays.mismatch(a, b);
        return differ >= 0 && Long.compareUnsigned(a[differ], b[differ]) < 0;
    }
}
