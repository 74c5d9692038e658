package dev.makeroom.rescheduler;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.model.Taint;
import dev.makeroom.core.rounds.Evictor;
import dev.makeroom.core.rounds.Move;
import dev.makeroom.core.rounds.NodeTaints;
import dev.makeroom.core.rounds.RoomHold;
import dev.makeroom.core.rounds.RoomPlan;

/**
 * The ports when makeroom reads a snapshot file: there is no API to evict through or to hold room in,
 * so every eviction fails saying so, no room is held (so nothing is evicted for it) and no node is
 * tainted (so the consolidate policy evicts nothing). Rounds on a
 * file plan; makeroom warns at start when evict mode is asked of one.
 */
public final class NoApi implements Evictor, RoomHold, NodeTaints {

    private static final String WHY = "no Kubernetes API to evict through (a snapshot file)";

    @Override
    public EvictionOutcome evict(PodInfo pod, Move move) {
        return new EvictionOutcome(EvictionOutcome.Result.FAILED, WHY);
    }

    @Override
    public void expireAvoidances(String node) {
        // no avoid list is written without an API
    }

    @Override
    public boolean reserve(String node, Reservation reservation) {
        return false;
    }

    @Override
    public void release(String node, String uid) {
        // nothing was held
    }

    @Override
    public void announce(PodInfo pending, RoomPlan room) {
        // no pod to tell: reserve always refuses, so this is never reached
    }

    @Override
    public boolean taint(String node, Taint taint) {
        return false;
    }

    @Override
    public boolean untaint(String node, String key) {
        return false;
    }
}
