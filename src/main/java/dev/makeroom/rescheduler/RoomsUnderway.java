package dev.makeroom.rescheduler;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.rounds.RoomHold;
import dev.makeroom.core.rounds.Move;
import dev.makeroom.core.rounds.RoomPlan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The room a round makes for pending pods, while its moves are enacted: a room's node is reserved
 * (and the pending pod told) before its first eviction, so the freed space is never open to others;
 * once one of its evictions does not happen, its other moves are not tried (the pod would not fit);
 * a room of which nothing was evicted gives its reservation back at once.
 */
final class RoomsUnderway {

    private static final class Progress {
        boolean reserved;
        int evicted;
        String stopped;
    }

    private final RoomHold hold;
    private final ClusterSnapshot snapshot;
    private final Map<String, RoomPlan> roomOfPod = new HashMap<>();
    private final Map<RoomPlan, Progress> progress = new IdentityHashMap<>();
    private final List<RoomPlan> rooms;

    RoomsUnderway(List<RoomPlan> rooms, RoomHold hold, ClusterSnapshot snapshot) {
        this.hold = hold;
        this.snapshot = snapshot;
        this.rooms = rooms;
        for (RoomPlan room : rooms) {
            progress.put(room, new Progress());
            room.moves().forEach(m -> roomOfPod.put(m.pod().uid(), room));
        }
    }

    /** Readies the move's room before its eviction; why the move must not be tried, when it must not. */
    Optional<NotReady> begin(Move move) {
        RoomPlan room = roomOfPod.get(move.pod().uid());
        if (room == null) {
            return Optional.empty();
        }
        Progress p = progress.get(room);
        if (p.stopped != null) {
            return Optional.of(new NotReady("room for " + room.pending() + " on " + room.node() + " stopped: " + p.stopped));
        }
        if (!p.reserved) {
            if (!hold.reserve(room.node(), new Reservation(room.pending(), room.reserveUntil()))) {
                p.stopped = "could not reserve " + room.node() + " for " + room.pending();
                return Optional.of(new NotReady(p.stopped));
            }
            p.reserved = true;
            hold.announce(snapshot.pod(room.pending().uid()), room);
        }
        return Optional.empty();
    }

    /** Records whether the move's pod left its node. */
    void done(Move move, boolean left) {
        RoomPlan room = roomOfPod.get(move.pod().uid());
        if (room == null) {
            return;
        }
        Progress p = progress.get(room);
        if (left) {
            p.evicted++;
        } else if (p.stopped == null) {
            p.stopped = move.pod() + " was not evicted";
        }
    }

    /** What came of each room; the reservations of rooms nothing was evicted for are released. */
    List<RoundReport.RoomResult> finish() {
        List<RoundReport.RoomResult> results = new ArrayList<>();
        for (RoomPlan room : rooms) {
            Progress p = progress.get(room);
            int all = room.moves().size();
            if (p.evicted == all) {
                results.add(new RoundReport.RoomResult(room, RoundReport.RoomOutcome.ENACTED, room.node() + " held for " + room.pending()
                        + " until " + room.reserveUntil()));
            } else if (p.evicted > 0) {
                results.add(new RoundReport.RoomResult(room, RoundReport.RoomOutcome.PARTLY_ENACTED, p.evicted + " of " + all
                        + " moves evicted (" + p.stopped + "); " + room.node() + " stays held until " + room.reserveUntil()));
            } else {
                if (p.reserved) {
                    hold.release(room.node(), room.pending().uid());
                }
                results.add(new RoundReport.RoomResult(room, RoundReport.RoomOutcome.NOT_ENACTED, p.stopped == null ? "not tried" : p.stopped));
            }
        }
        return results;
    }
}
