package dev.makeroom.rescheduler;

import dev.makeroom.core.rounds.consolidate.ConsolidatePolicy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** How many evictions each draining node took, counted across rounds by this leader until its drain ends. */
final class DrainEvictions {

    private final Map<String, Integer> evictions = new HashMap<>(); // draining node -> evictions off it so far

    /**
     * The drains' results, an emptied node's saying how many evictions emptied it: the consolidate
     * policy's evictions off each draining node are counted across rounds (by this leader) until the
     * node is emptied, released or abandoned.
     */
    List<RoundReport.DrainResult> counted(List<RoundReport.DrainResult> finished, List<RoundReport.MoveResult> moves) {
        for (RoundReport.MoveResult moved : moves) {
            if (ConsolidatePolicy.KIND.equals(moved.move().policy()) && moved.result() == RoundReport.MoveOutcome.EVICTED) {
                evictions.merge(moved.move().from(), 1, Integer::sum);
            }
        }
        List<RoundReport.DrainResult> counted = new ArrayList<>(finished.size());
        for (RoundReport.DrainResult drain : finished) {
            String node = drain.drain().node();
            switch (drain.result()) {
                case EMPTIED -> {
                    int count = evictions.getOrDefault(node, 0);
                    evictions.remove(node);
                    counted.add(new RoundReport.DrainResult(drain.drain(), drain.result(), drain.detail() + "; emptied with "
                            + count + (count == 1 ? " eviction" : " evictions") + " (as this replica counted them)"));
                    continue;
                }
                case RELEASED, ABANDONED -> evictions.remove(node);
                default -> { }
            }
            counted.add(drain);
        }
        return counted;
    }
}
