package dev.makeroom.core.rounds;

import dev.makeroom.core.model.PodInfo;

/**
 * A pending pod less who it is (uid, name) and when it came (times, resource version): what a search
 * over one snapshot reads of it, so two pods of one shape get the same answer there (a Job's or a
 * scale-up's pods).
 */
public final class PodShape {

    private PodShape() {
    }

    public static PodInfo.Builder of(PodInfo pod) {
        return pod.toBuilder().uid("").name("").startTime(null).creationTime(null).resourceVersion(0)
                .unschedulableSince(null);
    }
}
