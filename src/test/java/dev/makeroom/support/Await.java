package dev.makeroom.support;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a deadline, checking often; fails with the description when it never holds. */
public final class Await {

    private Await() {
    }

    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        until(what, timeout, Duration.ofMillis(10), condition);
    }

    /** As above, checking every {@code every}: for conditions whose check costs the process under test. */
    public static void until(String what, Duration timeout, Duration every, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting until " + what);
            }
            LockSupport.parkNanos(every.toNanos());
        }
    }
}
