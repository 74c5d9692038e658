package dev.makeroom.web;

import dev.makeroom.core.filter.FilterVerdict;
import dev.makeroom.core.score.NodeScore;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The filter and prioritize answers (extender/v1 ExtenderFilterResult and HostPriorityList),
 * written straight to bytes: these answers name every node of the cluster, on every scheduling
 * cycle. Keys are PascalCase and absent fields null, exactly as a Go client expects them.
 */
final class NodesAnswers {

    private NodesAnswers() {
    }

    /** Passing nodes come back in the form they were asked in: names, or the received objects unchanged. */
    static byte[] filter(NodesArgs args, FilterVerdict verdict) {
        JsonOut out = new JsonOut(args.byName() ? args.names().size() * 32 : bodySizeOf(args) + 4096);
        out.ascii("{\"Nodes\":");
        if (args.byName()) {
            out.ascii("null,\"NodeNames\":");
            strings(out, verdict.passed());
        } else {
            out.ascii("{\"metadata\":");
            if (args.listMetadata() == null) {
                out.ascii("{}");
            } else {
                out.raw(args.listMetadata());
            }
            out.ascii(",\"items\":");
            echo(out, args, verdict.passed());
            out.ascii("},\"NodeNames\":null");
        }
        out.ascii(",\"FailedNodes\":");
        reasons(out, verdict.failed());
        out.ascii(",\"FailedAndUnresolvableNodes\":");
        reasons(out, verdict.unresolvable());
        return out.ascii(",\"Error\":\"\"}").toByteArray();
    }

    static byte[] scores(List<NodeScore> scores) {
        JsonOut out = new JsonOut(scores.size() * 40);
        out.ascii("[");
        for (int i = 0; i < scores.size(); i++) {
            out.ascii(i == 0 ? "{\"Host\":" : ",{\"Host\":").string(scores.get(i).host())
                    .ascii(",\"Score\":").number(scores.get(i).score()).ascii("}");
        }
        return out.ascii("]").toByteArray();
    }

    /** The received node objects that passed, in the order received. */
    private static void echo(JsonOut out, NodesArgs args, List<String> passed) {
        Set<String> keep = new HashSet<>(passed);
        out.ascii("[");
        boolean first = true;
        for (int i = 0; i < args.names().size(); i++) {
            if (keep.remove(args.names().get(i))) {
                out.ascii(first ? "" : ",").raw(args.items().get(i));
                first = false;
            }
        }
        out.ascii("]");
    }

    private static void strings(JsonOut out, List<String> values) {
        out.ascii("[");
        for (int i = 0; i < values.size(); i++) {
            out.ascii(i == 0 ? "" : ",").string(values.get(i));
        }
        out.ascii("]");
    }

    private static void reasons(JsonOut out, Map<String, String> byNode) {
        out.ascii("{");
        boolean first = true;
        for (Map.Entry<String, String> e : byNode.entrySet()) {
            out.ascii(first ? "" : ",").string(e.getKey()).ascii(":").string(e.getValue());
            first = false;
        }
        out.ascii("}");
    }

    private static int bodySizeOf(NodesArgs args) {
        return args.items().isEmpty() ? 0 : args.items().get(0).source().length;
    }
}
