package dev.makeroom.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * How the load tools send requests to a makeroom in its own JVM, and what they read of a phase: an
 * open loop (requests due at fixed times on {@link #CONNECTIONS} keep-alive connections, latency
 * from when each was due, so a slow answer delays nothing else) or a closed one (one request at a
 * time on one connection, as an independent sequential client sees it), each beside the bucket of
 * makeroom's own request histogram holding 99% of the phase.
 */
final class LoadPhases {

    /** Connections of the open loop: enough that a slow answer never holds up the requests behind it. */
    static final int CONNECTIONS = 16;

    private final ServerProcess server;

    LoadPhases(ServerProcess server) {
        this.server = server;
    }

    /** One request: when it started (wall clock, ms; for the open loop, when it was due) and how long it took. */
    record Sample(long startMillis, long nanos) {
        long endMillis() {
            return startMillis + (nanos + 999_999) / 1_000_000;
        }
    }

    /**
     * serverP99Ms: the bucket bound of makeroom's own histogram below which 99% of its timings fell (NaN:
     * not taken); samples: every request, in the order answered.
     */
    record Result(String name, int requests, int errors, double seconds, double serverP99Ms,
                  List<Sample> samples) {

        /** The slowest {@code share} of the requests (at least one), slowest first. */
        List<Sample> slowest(double share) {
            int count = Math.max(1, (int) Math.ceil(share * samples.size()));
            return samples.stream().sorted(java.util.Comparator.comparingLong(Sample::nanos).reversed()).limit(count)
                    .toList();
        }

        double percentile(double p) {
            long[] nanos = samples.stream().mapToLong(Sample::nanos).sorted().toArray(); // a few calls per phase
            if (nanos.length == 0) {
                return Double.NaN;
            }
            int i = (int) Math.ceil(p / 100.0 * nanos.length) - 1;
            return nanos[Math.max(0, Math.min(nanos.length - 1, i))] / 1e6;
        }

        /** A row of the load tables: requests, rate, errors, the client's p50 / p99 / p99.9, makeroom's p99. */
        String line() {
            return String.format(Locale.ROOT, "| %s | %d | %.0f | %d | %.2f | %.2f | %.2f | %s |", name, requests,
                    requests / seconds, errors, percentile(50), percentile(99), percentile(99.9),
                    Double.isNaN(serverP99Ms) ? "—" : "≤ " + plain(serverP99Ms));
        }
    }

    /** {@code rate} requests a second for {@code seconds}, latency from each scheduled start. */
    Result openLoop(String name, String verb, byte[] body, int rate, int seconds) throws Exception {
        return openLoop(name, () -> verb, () -> body, rate, seconds, verb);
    }

    /** {@code single}: the one verb of the phase, whose histogram in makeroom is read; null for mixed verbs. */
    Result openLoop(String name, Supplier<String> verbs, Supplier<byte[]> bodiesFor, int rate, int seconds,
                    String single) throws Exception {
        TreeMap<Double, Long> before = single == null ? null : server.histogram(single);
        int total = rate * seconds;
        long periodNanos = 1_000_000_000L / rate;
        ConcurrentLinkedQueue<Sample> samples = new ConcurrentLinkedQueue<>();
        AtomicInteger errors = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(total);
        // requests wait here from their scheduled start until a connection is free: that wait counts
        BlockingQueue<Scheduled> due = new LinkedBlockingQueue<>();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < CONNECTIONS; w++) {
            Thread worker = new Thread(() -> {
                try (RawHttpConnection connection = new RawHttpConnection("127.0.0.1", server.port)) {
                    while (true) {
                        Scheduled next = due.take();
                        boolean ok;
                        try {
                            ok = connection.post("/scheduler/" + next.verb(), next.body()).status() == 200;
                        } catch (IOException e) {
                            ok = false;
                        }
                        samples.add(new Sample(next.dueMillis(), System.nanoTime() - next.intended()));
                        if (!ok) {
                            errors.incrementAndGet();
                        }
                        done.countDown();
                    }
                } catch (InterruptedException stop) {
                    // phase over
                }
            });
            worker.setDaemon(true);
            worker.start();
            workers.add(worker);
        }
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        long start = System.nanoTime();
        long startMillis = System.currentTimeMillis();
        AtomicLong issued = new AtomicLong();
        ticker.scheduleAtFixedRate(() -> {
            long k = issued.getAndIncrement();
            if (k < total) {
                String verb = verbs.get();
                due.add(new Scheduled(verb, bodiesFor.get(), start + k * periodNanos,
                        startMillis + k * periodNanos / 1_000_000));
            }
        }, 0, periodNanos, TimeUnit.NANOSECONDS);
        done.await(seconds + 120L, TimeUnit.SECONDS);
        ticker.shutdownNow();
        workers.forEach(Thread::interrupt);
        double elapsed = (System.nanoTime() - start) / 1e9;
        double serverP99 = single == null ? Double.NaN : bound(before, server.histogram(single), 0.99);
        List<Sample> all = List.copyOf(samples);
        Result result = new Result(name, total, errors.get() + (int) done.getCount(), elapsed, serverP99, all);
        System.out.println(result.line());
        return result;
    }

    private record Scheduled(String verb, byte[] body, long intended, long dueMillis) {
    }

    Result closedLoop(String name, String verb, byte[] body, int count) throws Exception {
        return closedLoop(name, verb, List.of(body), count);
    }

    /** {@code count} requests one after another, the bodies in turn. */
    Result closedLoop(String name, String verb, List<byte[]> bodies, int count) throws Exception {
        List<Sample> samples = new ArrayList<>();
        int errors = 0;
        TreeMap<Double, Long> before = server.histogram(verb);
        long start = System.nanoTime();
        try (RawHttpConnection connection = new RawHttpConnection("127.0.0.1", server.port)) {
            for (int i = 0; i < count; i++) {
                long startedMillis = System.currentTimeMillis();
                long t0 = System.nanoTime();
                int status = connection.post("/scheduler/" + verb, bodies.get(i % bodies.size())).status();
                samples.add(new Sample(startedMillis, System.nanoTime() - t0));
                errors += status == 200 ? 0 : 1;
            }
        }
        Result result = new Result(name, count, errors, (System.nanoTime() - start) / 1e9,
                bound(before, server.histogram(verb), 0.99), samples);
        System.out.println(result.line());
        return result;
    }

    /** The smallest bucket bound (ms) holding the share {@code q} of the timings recorded between two readings. */
    static double bound(TreeMap<Double, Long> before, TreeMap<Double, Long> after, double q) {
        long all = after.get(Double.POSITIVE_INFINITY) - before.getOrDefault(Double.POSITIVE_INFINITY, 0L);
        for (var bucket : after.entrySet()) {
            if (bucket.getValue() - before.getOrDefault(bucket.getKey(), 0L) >= q * all) {
                return bucket.getKey() * 1000;
            }
        }
        return Double.NaN;
    }

    static String plain(double value) {
        return java.math.BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

}
