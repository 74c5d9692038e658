package dev.makeroom.cluster;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.preemption.GangRooms;
import dev.makeroom.core.preemption.GangStart;
import dev.makeroom.mapping.ReservationAnnotation;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Holds the room found for a gang's other waiting members on their nodes, in the reservation
 * annotation defragmentation writes ({@code makeroom.dev/reserved-for}): while it holds, makeroom's
 * filter keeps pods of no higher priority off the node and its prioritize steers the member there.
 * Written off the request's thread (a full queue drops the hold, never the answer); entries whose time
 * is up are dropped when a node is written, since nothing else releases them.
 *
 * <p>One hold per member: a member held anew on another node is released where it was held before,
 * as the snapshot shows it (holds any replica wrote) and as this replica last wrote it (holds the view
 * has not shown yet).
 */
public final class GangRoomHolds implements GangRooms, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GangRoomHolds.class);

    private final KubernetesClient client;
    private final Clock clock;
    private final Duration holdFor;
    private final ThreadPoolExecutor writer;
    private final AtomicLong dropped = new AtomicLong();
    private final Map<String, Held> lastWritten = new HashMap<>(); // by member UID; the writer thread's own

    private record Held(String node, Instant until) {
    }

    public GangRoomHolds(KubernetesClient client, Clock clock, Duration holdFor) {
        this.client = client;
        this.clock = clock;
        this.holdFor = holdFor;
        this.writer = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(256), r -> {
            Thread t = new Thread(r, "makeroom-gang-holds");
            t.setDaemon(true);
            return t;
        }, (task, pool) -> dropped.incrementAndGet());
    }

    @Override
    public void hold(ClusterSnapshot snapshot, List<GangStart.Room> rooms, Instant now) {
        Instant until = now.plus(holdFor);
        for (GangStart.Room room : rooms) {
            Set<String> before = Reservation.nodesHolding(snapshot, room.member().uid());
            writer.execute(() -> write(room, until, before));
        }
    }

    /** Holds not written because the queue was full. */
    public long dropped() {
        return dropped.get();
    }

    /** On the writer thread: the member's hold on its room's node, and none on the nodes it was held on {@code before}. */
    private void write(GangStart.Room room, Instant until, Set<String> before) {
        Instant now = clock.instant();
        String uid = room.member().uid();
        lastWritten.values().removeIf(held -> !held.until().isAfter(now));
        Set<String> release = new TreeSet<>(before);
        Held last = lastWritten.put(uid, new Held(room.node(), until));
        if (last != null) {
            release.add(last.node());
        }
        release.remove(room.node());
        for (String node : release) {
            try {
                client.nodes().withName(node).edit(n -> ReservationAnnotation.without(n, uid));
            } catch (KubernetesClientException e) {
                log.warn("could not release {} held for {}: {}", node, room.member().ref(), e.getMessage());
            }
        }
        try {
            client.nodes().withName(room.node()).edit(n -> ReservationAnnotation.with(n,
                    new Reservation(room.member().ref(), until), now));
        } catch (KubernetesClientException e) {
            log.warn("could not hold {} for {}: {}", room.node(), room.member().ref(), e.getMessage());
        }
    }

    @Override
    public void close() {
        writer.shutdownNow();
    }
}
