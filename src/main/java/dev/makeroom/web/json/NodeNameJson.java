package dev.makeroom.web.json;

import dev.makeroom.core.model.NodeTable;
import org.springframework.stereotype.Component;

/**
 * Every node name of the cluster as its JSON string, encoded once: filter and prioritize answers
 * repeat thousands of the request's node names on every scheduling cycle. Kept for the latest
 * node table and reused while snapshots keep the same nodes ({@link NodeTable#sameNodesAs}); it
 * is encoded again only after nodes joined or left.
 */
@Component
public class NodeNameJson {

    /** The encodings for {@code table}'s rows: row i is {@code bytes[start[i] .. start[i + 1])}. */
    public record Encoded(NodeTable table, byte[] bytes, int[] start) {

        static Encoded of(NodeTable table) {
            int[] start = new int[table.size() + 1];
            JsonOut out = new JsonOut(table.size() * 16);
            for (int i = 0; i < table.size(); i++) {
                out.string(table.name(i));
                start[i + 1] = out.size();
            }
            return new Encoded(table, out.answer().toByteArray(), start);
        }

        /** Writes the name at {@code row} of this table, or {@code name} itself when the row is -1. */
        void write(JsonOut out, int row, String name) {
            if (row < 0) {
                out.string(name);
            } else {
                out.raw(bytes, start[row], start[row + 1] - start[row]);
            }
        }
    }

    private static final Encoded NO_ROWS = Encoded.of(NodeTable.EMPTY);

    private volatile Encoded latest;

    /**
     * The encodings for this table's rows; only the latest table is held, never an older snapshot's.
     * A table without rows (the filter reads names unresolved) leaves the held one alone: filter and
     * prioritize alternate on every pod, and each would otherwise throw away the other's encodings.
     */
    public Encoded of(NodeTable table) {
        if (table.size() == 0) {
            return NO_ROWS;
        }
        Encoded known = latest;
        if (known != null && known.table() == table) {
            return known;
        }
        Encoded current = known != null && table.sameNodesAs(known.table())
                ? new Encoded(table, known.bytes(), known.start())
                : Encoded.of(table);
        latest = current;
        return current;
    }
}
