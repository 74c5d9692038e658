package dev.makeroom.web.json;

import dev.makeroom.core.model.NodeTable;
import dev.makeroom.core.model.RequestedNodes;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Splits the scan of a large body of node objects across two threads: while the request's thread
 * scans the items from the start, a helper scans them from a guessed item boundary past the middle.
 *
 * <p>Design: the guess is the first place past the middle where a comma is followed by the bytes
 * that began the first item up to its {@code metadata} object (in the scheduler's bodies
 * <code>,{"metadata":{</code>). It may be wrong — those bytes may begin a nested object — so the
 * helper's items are taken only if the request's thread, scanning item by item, arrives exactly
 * where the helper began: then the helper scanned from the same state the request's thread is in
 * (the start of an item of the same array, at the same depth, no keys of that array's objects
 * open) and read what that thread would have. Otherwise, or if the helper gave up, had not
 * started yet, or could not be run, the request's thread scans on alone. The helper's answer is
 * therefore never needed for a right result, only for a fast one: on a body of 5,000 nodes it
 * takes about half the scan off when a second core is free (the scheduler waits on the answer, so
 * one usually is).
 */
final class ScanSplit {

    /** The split used by the verbs: bodies under a megabyte are scanned faster than a helper is handed one. */
    static final ScanSplit VERBS = new ScanSplit(1 << 20, false);

    private static final int MAX_PATTERN_BYTES = 256;
    private static final int SEARCH_WINDOW_BYTES = 1 << 20;

    // one helper: the scheduler sends one body at a time, and a request whose turn has not come scans alone
    private static final ExecutorService HELPER = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "makeroom-scan-helper");
        thread.setDaemon(true);
        return thread;
    });

    private final int minBytes;
    private final boolean patient;
    private final AtomicLong halvesTaken = new AtomicLong();

    /**
     * {@code minBytes}: the least body left after the first item that is worth a helper (0: always
     * try); {@code patient}: wait for a helper that has not started rather than scan on alone (tests
     * use it to have small bodies split, which a request's thread otherwise finishes first).
     */
    ScanSplit(int minBytes, boolean patient) {
        this.minBytes = minBytes;
        this.patient = patient;
    }

    /** How many scans took the helper's half. */
    long halvesTaken() {
        return halvesTaken.get();
    }

    /**
     * Starts the helper on the items of {@code body} from the guessed boundary, or returns null when
     * there is no guess or the body is small: {@code first..firstMetadata} is the first item's start
     * through the brace of its metadata object; {@code next} is where the second item starts.
     */
    Half start(byte[] body, NodeTable known, int first, int firstMetadata, int next) {
        int patternLength = firstMetadata + 1 - first;
        if (body.length - next < minBytes || patternLength > MAX_PATTERN_BYTES) {
            return null;
        }
        int from = guess(body, first, patternLength, next + (body.length - next) / 2);
        if (from < 0) {
            return null;
        }
        Half half = new Half(body, known, from);
        try {
            HELPER.execute(half::run);
        } catch (RuntimeException e) { // a helper that cannot be run: the request's thread scans alone
            return null;
        }
        return half;
    }

    /** The first item start at or past {@code from}, within the search window, by the first item's opening bytes. */
    private static int guess(byte[] body, int first, int patternLength, int from) {
        int last = Math.min(body.length - patternLength, from + SEARCH_WINDOW_BYTES);
        byte opening = body[first];
        for (int i = Math.max(from, 1); i <= last; i++) {
            if (body[i] == opening && body[i - 1] == ',' && matches(body, i, first, patternLength)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean matches(byte[] body, int at, int first, int length) {
        for (int k = 1; k < length; k++) {
            if (body[at + k] != body[first + k]) {
                return false;
            }
        }
        return true;
    }

    /** The items of one array from a start to its closing bracket: their ranges, names and rows, and where the array ended. */
    record ItemRun(List<RawJson> items, RequestedNodes names, int end) {
    }

    /** One request's helper: scans from {@link #from()} unless cancelled first. */
    final class Half {
        private static final int WAITING = 0;
        private static final int RUNNING = 1;
        private static final int CANCELLED = 2;

        private final byte[] body;
        private final NodeTable known;
        private final int from;
        private final AtomicInteger state = new AtomicInteger(WAITING);
        private final CompletableFuture<ItemRun> done = new CompletableFuture<>();
        private volatile boolean stopped;

        private Half(byte[] body, NodeTable known, int from) {
            this.body = body;
            this.known = known;
            this.from = from;
        }

        /** Where the helper began: an item start, if the guess was right. */
        int from() {
            return from;
        }

        private void run() {
            if (!state.compareAndSet(WAITING, RUNNING)) {
                return;
            }
            ItemRun run = null;
            try {
                run = NodesArgsScanner.itemsFrom(body, known, from, () -> stopped);
            } finally { // whatever went wrong, the request's thread is not left waiting, and meets it itself
                done.complete(run);
            }
        }

        /**
         * The helper's items, once the request's thread has arrived exactly at {@link #from()};
         * null when that thread must scan them itself (the helper had not started, or gave up).
         */
        ItemRun take() {
            if (!patient && state.compareAndSet(WAITING, CANCELLED)) {
                return null;
            }
            ItemRun run = done.join();
            if (run != null) {
                halvesTaken.incrementAndGet();
            }
            return run;
        }

        /** The guess was wrong or is no longer needed: stop the helper at its next item. */
        void cancel() {
            stopped = true;
            state.compareAndSet(WAITING, CANCELLED);
        }
    }
}
