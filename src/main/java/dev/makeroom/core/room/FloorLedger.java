package dev.makeroom.core.room;

/**
 * What a set being built draws on each queue floor ({@link QueueFloors}), and how many floors it
 * breaks: the one place draws are added up, for the search (victims taken and put back), the
 * reprieve and checks of plain sets.
 */
final class FloorLedger {

    private final QueueFloors floors;
    private final long[] drawn;
    private int broken;

    FloorLedger(QueueFloors floors) {
        this.floors = floors;
        this.drawn = new long[floors.size()];
    }

    /** The draws of exactly the marked victims. */
    static FloorLedger over(QueueFloors floors, boolean[] evicted) {
        FloorLedger ledger = new FloorLedger(floors);
        for (int i = 0; i < evicted.length; i++) {
            if (evicted[i]) {
                ledger.draw(i);
            }
        }
        return ledger;
    }

    void draw(int i) {
        change(i, 1);
    }

    void undraw(int i) {
        change(i, -1);
    }

    private void change(int i, int sign) {
        int[] of = floors.of(i);
        long[] amounts = floors.draw(i);
        for (int j = 0; j < of.length; j++) {
            int k = of[j];
            boolean wasBroken = brokenAt(k);
            drawn[k] += sign * amounts[j];
            if (wasBroken != brokenAt(k)) {
                broken += wasBroken ? -1 : 1;
            }
        }
    }

    private boolean brokenAt(int k) {
        return drawn[k] > floors.slack()[k];
    }

    /** Whether every queue stays at or above its guarantee. */
    boolean holds() {
        return broken == 0;
    }

    /** Whether candidate {@code i} draws on a floor the set now breaks. */
    boolean drawsOnBroken(int i) {
        for (int k : floors.of(i)) {
            if (brokenAt(k)) {
                return true;
            }
        }
        return false;
    }
}
