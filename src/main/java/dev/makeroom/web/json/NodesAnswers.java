package dev.makeroom.web.json;

import dev.makeroom.core.filter.FilterVerdict;
import dev.makeroom.core.model.RequestedNodes;
import dev.makeroom.core.score.NodeScore;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The filter and prioritize answers (extender/v1 ExtenderFilterResult and HostPriorityList),
 * written straight to bytes: these answers name every node of the cluster, on every scheduling
 * cycle. Keys are PascalCase and absent fields null, exactly as a Go client expects them.
 *
 * <p>Node names are copied from their encodings ({@link NodeNameJson}). The answers list them in
 * the request's order, so each one's row is found by walking the request's names alongside
 * ({@link Rows}), not by a lookup; a failure reason, one of a few per request, is copied from where
 * it was first written.
 */
public final class NodesAnswers {

    private NodesAnswers() {
    }

    /** Passing nodes come back in the form they were asked in: names, or the received objects unchanged. */
    public static AnswerBytes filter(NodesArgs args, FilterVerdict verdict, NodeNameJson.Encoded names) {
        return filter((JsonOut) null, args, verdict, names);
    }

    /**
     * As above, written into {@code reused} (emptied first) when it is not null: a buffer its thread keeps,
     * so that the answer is valid until that thread writes its next one.
     */
    public static AnswerBytes filter(VerbBuffers reused, NodesArgs args, FilterVerdict verdict, NodeNameJson.Encoded names) {
        return filter(reused.out, args, verdict, names);
    }

    private static AnswerBytes filter(JsonOut reused, NodesArgs args, FilterVerdict verdict, NodeNameJson.Encoded names) {
        int[] runs = args.byName() ? null : runs(kept(args.nodes(), verdict.passed()));
        // sized once: growing would copy all the node objects echoed so far (large runs stay in the body)
        int expected = args.names().size() * 32 + 4096 + (runs == null ? 0 : copiedBytes(args.items(), runs));
        JsonOut out = reused == null ? new JsonOut(expected) : reused.reset().reserve(expected);
        out.ascii("{\"Nodes\":");
        if (args.byName()) {
            out.ascii("null,\"NodeNames\":[");
            Rows rows = new Rows(args.nodes());
            for (int i = 0; i < verdict.passed().size(); i++) {
                if (i > 0) {
                    out.ascii(',');
                }
                String name = verdict.passed().get(i);
                names.write(out, rows.of(name), name);
            }
            out.ascii(']');
        } else {
            out.ascii("{\"metadata\":");
            if (args.listMetadata() == null) {
                out.ascii("{}");
            } else {
                out.raw(args.listMetadata());
            }
            out.ascii(",\"items\":");
            echo(out, args.items(), runs);
            out.ascii("},\"NodeNames\":null");
        }
        out.ascii(",\"FailedNodes\":");
        reasons(out, args.nodes(), names, verdict.failed());
        out.ascii(",\"FailedAndUnresolvableNodes\":");
        reasons(out, args.nodes(), names, verdict.unresolvable());
        return out.ascii(",\"Error\":\"\"}").answer();
    }

    /** {@code scores}: one per node of {@code asked}, written in the order given (the request's, nearly always). */
    public static AnswerBytes scores(RequestedNodes asked, List<NodeScore> scores, NodeNameJson.Encoded names) {
        JsonOut out = new JsonOut(scores.size() * 40);
        out.ascii('[');
        Rows rows = new Rows(asked);
        for (int i = 0; i < scores.size(); i++) {
            String host = scores.get(i).host();
            score(out, i, rows.of(host), host, scores.get(i).score(), names);
        }
        return out.ascii(']').answer();
    }

    /**
     * {@code scores[i]}: the score of {@code asked}'s i-th node; written into the thread's buffer: valid
     * until its next answer.
     */
    public static AnswerBytes scores(VerbBuffers reused, RequestedNodes asked, int[] scores, NodeNameJson.Encoded names) {
        return scores(reused.out, asked, scores, names);
    }

    private static AnswerBytes scores(JsonOut out, RequestedNodes asked, int[] scores, NodeNameJson.Encoded names) {
        out.reset().reserve(asked.size() * 40);
        out.ascii('[');
        for (int i = 0; i < asked.size(); i++) {
            score(out, i, asked.row(i), asked.name(i), scores[i], names);
        }
        return out.ascii(']').answer();
    }

    /** The i-th entry of a prioritize answer: the node at {@code row} ({@code host} itself when -1) and its score. */
    private static void score(JsonOut out, int i, int row, String host, int score, NodeNameJson.Encoded names) {
        out.ascii(i == 0 ? "{\"Host\":" : ",{\"Host\":");
        names.write(out, row, host);
        out.ascii(",\"Score\":").number(score).ascii('}');
    }

    /**
     * The received node objects that passed, in the order received. Consecutive ones go as one range
     * of the request body (between two items there is only a comma and whitespace): when all pass,
     * the whole array is sent from where it arrived.
     */
    private static void echo(JsonOut out, List<RawJson> items, int[] runs) {
        out.ascii('[');
        for (int r = 0; r < runs.length; r += 2) {
            RawJson from = items.get(runs[r]);
            out.ascii(r == 0 ? "" : ",").raw(from.source(), from.from(), items.get(runs[r + 1]).to() - from.from());
        }
        out.ascii(']');
    }

    /** The kept items as runs of consecutive ones: first and last index of each, in pairs. */
    private static int[] runs(boolean[] kept) {
        int[] runs = new int[kept.length + kept.length % 2];
        int count = 0;
        for (int i = 0; i < kept.length; i++) {
            if (kept[i]) {
                runs[count++] = i;
                while (i + 1 < kept.length && kept[i + 1]) {
                    i++;
                }
                runs[count++] = i;
            }
        }
        return Arrays.copyOf(runs, count);
    }

    /** How many bytes of the runs the answer copies rather than sends from the body. */
    private static int copiedBytes(List<RawJson> items, int[] runs) {
        int copied = 0;
        for (int r = 0; r < runs.length; r += 2) {
            int length = items.get(runs[r + 1]).to() - items.get(runs[r]).from();
            copied += length < JsonOut.KEPT_IN_PLACE ? length + 1 : 0; // and its comma; within one body's length
        }
        return copied;
    }

    /**
     * Which of the request's nodes passed. The core lists them in the request's order, so one walk
     * along both lists finds them, with no hashing of thousands of names; a list in any other order
     * is matched by a set, each name to its first node.
     */
    private static boolean[] kept(RequestedNodes asked, List<String> passed) {
        boolean[] kept = new boolean[asked.size()];
        int next = 0;
        for (int i = 0; i < asked.size() && next < passed.size(); i++) {
            if (passed.get(next).equals(asked.name(i))) { // the same String, nearly always: equals sees that first
                kept[i] = true;
                next++;
            }
        }
        if (next == passed.size()) {
            return kept;
        }
        Arrays.fill(kept, false);
        Set<String> keep = new HashSet<>(passed);
        for (int i = 0; i < asked.size(); i++) {
            kept[i] = keep.remove(asked.name(i));
        }
        return kept;
    }

    private static void reasons(JsonOut out, RequestedNodes asked, NodeNameJson.Encoded names, Map<String, String> byNode) {
        out.ascii('{');
        if (byNode.isEmpty()) { // the common answer: nothing fails
            out.ascii('}');
            return;
        }
        Rows rows = new Rows(asked);
        WrittenStrings written = new WrittenStrings();
        boolean first = true;
        for (Map.Entry<String, String> e : byNode.entrySet()) {
            if (!first) {
                out.ascii(',');
            }
            names.write(out, rows.of(e.getKey()), e.getKey());
            out.ascii(':');
            written.write(out, e.getValue());
            first = false;
        }
        out.ascii('}');
    }

    /**
     * The rows of names that come in the request's order (any subsequence of it, as the core's
     * verdicts list them): one step along the request's names per name, compared by identity. A
     * name not met that way has row -1 and is encoded as it is, so any order is still answered right.
     */
    private static final class Rows {
        private final RequestedNodes asked;
        private int next;

        Rows(RequestedNodes asked) {
            this.asked = asked;
        }

        int of(String name) {
            while (next < asked.size()) {
                int i = next++;
                if (asked.name(i) == name) {
                    return asked.row(i);
                }
            }
            return -1;
        }
    }

    /** Strings written to one answer: the same String object again is copied from its first bytes. */
    private static final class WrittenStrings {
        private static final int KEPT = 8;
        private final String[] values = new String[KEPT];
        private final int[] from = new int[KEPT];
        private final int[] length = new int[KEPT];
        private int count;

        void write(JsonOut out, String value) {
            for (int k = 0; k < count; k++) {
                if (values[k] == value) {
                    out.repeat(from[k], length[k]);
                    return;
                }
            }
            int start = out.size();
            out.string(value);
            if (count < KEPT) {
                values[count] = value;
                from[count] = start;
                length[count++] = out.size() - start;
            }
        }
    }
}
