package dev.makeroom.rescheduler;

import dev.makeroom.core.model.ClusterView;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.rounds.RoomHold;
import dev.makeroom.core.rounds.RoomPlan;
import dev.makeroom.observability.DurationText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * A hold counts as taken only once makeroom's own view shows it. The filter that honours a hold reads
 * the view, so an eviction sent before the written annotation has come back through the watch frees
 * room that the filter would still give to another pod. Waits for it on the rescheduler's thread, at
 * most {@code within}; a hold not seen by then is ended again and counts as not taken (nothing is
 * evicted for a room, a move's replacement goes unsteered).
 */
public final class SeenHolds implements RoomHold {

    private static final Logger log = LoggerFactory.getLogger(Rescheduler.class); // the rescheduler's own lines
    private static final long POLL_NANOS = Duration.ofMillis(10).toNanos();

    private final RoomHold written;
    private final ClusterView view;
    private final Duration within;

    public SeenHolds(RoomHold written, ClusterView view, Duration within) {
        this.written = written;
        this.view = view;
        this.within = within;
    }

    @Override
    public boolean reserve(String node, Reservation reservation) {
        if (!written.reserve(node, reservation)) {
            return false;
        }
        long end = System.nanoTime() + within.toNanos();
        while (true) {
            if (shows(node, reservation)) {
                return true;
            }
            if (System.nanoTime() - end >= 0) {
                break;
            }
            LockSupport.parkNanos(POLL_NANOS); // the watch delivers it on the view's thread
        }
        log.warn("rescheduler: the hold on {} for {} was written, but makeroom's view did not show it within {}; "
                + "not relying on it", node, reservation.pod(), DurationText.of(within));
        written.release(node, reservation.pod().uid());
        return false;
    }

    private boolean shows(String node, Reservation reservation) {
        NodeInfo info = view.snapshot().node(node);
        return info != null && info.admission().reservations().stream()
                .anyMatch(r -> r.pod().uid().equals(reservation.pod().uid()));
    }

    @Override
    public void release(String node, String uid) {
        written.release(node, uid);
    }

    @Override
    public void announce(PodInfo pending, RoomPlan room) {
        written.announce(pending, room);
    }

    @Override
    public void landed(PodInfo replacement, String message) {
        written.landed(replacement, message);
    }
}
