package dev.makeroom.bench;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;

/**
 * Bytes allocated by the live threads whose names start with a prefix, since {@link #start()}: how a
 * benchmark tells the server's allocation from its client's when both run in one JVM. A thread that starts
 * after {@code start()} counts from zero; one that ends in between is not counted (request threads live
 * as long as the server).
 */
final class ThreadAllocation {

    private final String prefix;
    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final Map<Long, Long> atStart = new HashMap<>();

    ThreadAllocation(String prefix) {
        this.prefix = prefix;
    }

    void start() {
        atStart.clear();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().startsWith(prefix)) {
                atStart.put(thread.getId(), threads.getThreadAllocatedBytes(thread.getId()));
            }
        }
    }

    long allocatedSinceStart() {
        long total = 0;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().startsWith(prefix)) {
                long now = threads.getThreadAllocatedBytes(thread.getId());
                if (now >= 0) {
                    total += now - atStart.getOrDefault(thread.getId(), 0L);
                }
            }
        }
        return total;
    }
}
