package dev.makeroom.core.room;

import dev.makeroom.core.model.PodColumns;
import dev.makeroom.core.model.PodInfo;

/**
 * Who may be disturbed to make room for a pod on a node: preemption's candidacy (lower priority, the
 * opt-outs and the queue laws) or the rescheduler's movability. {@link NodeProblem} asks it of every
 * pod on the node, so both ways of making room share one posing of the problem.
 */
public interface Disturbance {

    /** What keeps {@code running} from being disturbed; {@link Protection#NONE} when nothing does. */
    Protection protectionOf(PodInfo running);

    /** As above, for {@code running} in {@code row} of its node's columns, which may answer without reading it. */
    default Protection protectionOf(PodColumns columns, int row, PodInfo running) {
        return protectionOf(running);
    }

    /** The ring {@code running} is taken in, or null when it is out of reach. */
    default Tier tierOf(PodInfo running, Protection protection) {
        return protection == Protection.NONE ? Tier.ORDINARY : null;
    }
}
