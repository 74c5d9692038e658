package dev.makeroom.core.model;

import java.time.Instant;

/**
 * An entry of a node's avoid list (the preferAvoidPods annotation): pods of the controller
 * {@code controllerUid} should not be placed there. makeroom's own entries ({@code own}) hold
 * {@code until} a time; others' hold until someone removes them ({@code until} null).
 */
public record Avoidance(String controllerUid, Instant until, boolean own) {

    public boolean activeAt(Instant now) {
        return until == null || until.isAfter(now);
    }
}
