package dev.makeroom.bench;

import java.util.List;

/**
 * What the slowest hundredth of a phase's requests ran into: how many overlapped a GC pause, how many
 * of the rest a concurrent marking cycle (which takes a core from makeroom on a small machine), and
 * how many neither. Tells a GC tail from a slow decision or a busy machine.
 */
record SlowestRequests(int inPause, int inMarking, int neither) {

    static SlowestRequests of(LoadPhases.Result phase, List<GcLog.Window> windows) {
        int inPause = 0;
        int inMarking = 0;
        int neither = 0;
        for (LoadPhases.Sample request : phase.slowest(0.01)) {
            if (overlaps(request, windows, false)) {
                inPause++;
            } else if (overlaps(request, windows, true)) {
                inMarking++;
            } else {
                neither++;
            }
        }
        return new SlowestRequests(inPause, inMarking, neither);
    }

    private static boolean overlaps(LoadPhases.Sample request, List<GcLog.Window> windows, boolean marking) {
        return windows.stream().anyMatch(w -> w.marking() == marking
                && w.overlaps(request.startMillis(), request.endMillis()));
    }

    String text() {
        return inPause + ", " + inMarking + ", " + neither;
    }
}
