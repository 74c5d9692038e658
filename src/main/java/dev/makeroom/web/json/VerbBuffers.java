package dev.makeroom.web.json;

import dev.makeroom.core.model.NodeTable;
import dev.makeroom.core.model.RequestedNodes;

/**
 * What a thread that serves filter and prioritize keeps from one call to the next: the names read
 * ({@link RequestedNodes.Builder#lend}), the scanner of their bodies, the keys Jackson's tokens check
 * for duplicates, the scores, and the answer's buffer. The scheduler calls these
 * verbs for every pod it places; reused, they cost no garbage in proportion to the 500 names of a call,
 * so no young collection interrupts the calls while pods bind. Whatever one call read or wrote through
 * them is valid until the same thread's next call, by which time its answer has been sent.
 */
public final class VerbBuffers {

    private static final ThreadLocal<VerbBuffers> OF_THREAD = ThreadLocal.withInitial(VerbBuffers::new);

    final JsonOut out = new JsonOut(JsonOut.KEPT_BUFFER);
    final RequestedNodes.Builder names = new RequestedNodes.Builder(NodeTable.EMPTY);
    final UniqueKeyTokens keys = new UniqueKeyTokens(null);
    final NodesArgsScanner scanner = new NodesArgsScanner();
    private int[] scores = new int[1024];

    /** The calling thread's buffers. */
    public static VerbBuffers ofThisThread() {
        return OF_THREAD.get();
    }

    /** An array for at least {@code size} scores, kept for the next call. */
    public int[] scores(int size) {
        if (scores.length < size) {
            scores = new int[Math.max(size, scores.length * 2)];
        }
        return scores;
    }
}
