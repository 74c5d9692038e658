package dev.makeroom.web.json;

import dev.makeroom.core.model.NodeTable;
import dev.makeroom.core.model.RequestedNodes;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The node objects of the last large full-object body scanned, kept to recognise them in the next
 * one: a scheduler that does not cache nodes sends all of them on every cycle, and between two
 * cycles only the few a kubelet or controller changed differ. An item whose bytes equal a seen
 * one's is that item again — a JSON object ends at its own closing brace, and the scan of an item
 * depends on nothing but its bytes — so comparing (a vectorised loop over the bytes) stands in for
 * scanning (a byte-by-byte walk that validates every string, key and number).
 *
 * <p>Holds the seen body itself, which no one changes: a request's body is its own array.
 */
final class SeenNodeObjects {

    /** Bodies smaller than this are scanned faster than they are remembered; they are not kept. */
    static final int MIN_BYTES = 1 << 20;

    private final List<RawJson> items; // ranges of the seen body, which no one changes
    private final RequestedNodes nodes; // their names, and rows in the table they were read against
    private final int[] indexByRow;
    private final AtomicLong recognised = new AtomicLong();

    private SeenNodeObjects(List<RawJson> items, RequestedNodes nodes) {
        this.items = items;
        this.nodes = nodes;
        indexByRow = new int[nodes.table().size()];
        Arrays.fill(indexByRow, -1);
        for (int k = items.size() - 1; k >= 0; k--) { // backwards: a name given twice is found at its first
            if (nodes.row(k) >= 0) {
                indexByRow[nodes.row(k)] = k;
            }
        }
    }

    /** What {@code args}, a scan of {@code body} with node objects, read; null when not worth keeping. */
    static SeenNodeObjects of(byte[] body, NodesArgs args) {
        return of(body, args, MIN_BYTES);
    }

    /** {@link #of(byte[], NodesArgs)} keeping bodies from {@code minBytes} (tests keep small ones). */
    static SeenNodeObjects of(byte[] body, NodesArgs args, int minBytes) {
        if (body.length < minBytes || args.byName() || args.items().isEmpty()) {
            return null;
        }
        return new SeenNodeObjects(args.items(), args.nodes());
    }

    /** How many items of later bodies were found equal to these, over all the bodies compared. */
    long recognised() {
        return recognised.get();
    }

    void countRecognised(int items) {
        recognised.addAndGet(items);
    }

    int size() {
        return items.size();
    }

    int length(int k) {
        return items.get(k).length();
    }

    /** Whether item {@code k} is what {@code other} holds from {@code at}. */
    boolean sameAt(int k, byte[] other, int at) {
        RawJson item = items.get(k);
        int end = at + item.length();
        return end <= other.length && Arrays.equals(item.source(), item.from(), item.to(), other, at, end);
    }

    String name(int k) {
        return nodes.name(k);
    }

    /** Item {@code k}'s row in {@code known}: kept while no node joined or left, else looked up. */
    int row(int k, NodeTable known) {
        return known.sameNodesAs(nodes.table()) ? nodes.row(k) : known.indexOf(nodes.name(k));
    }

    /** The first seen item named by {@code chars[0..length)}, or -1: where a changed list goes on. */
    int indexOf(char[] chars, int length) {
        int row = nodes.table().indexOf(chars, 0, length);
        return row < 0 ? -1 : indexByRow[row];
    }
}
