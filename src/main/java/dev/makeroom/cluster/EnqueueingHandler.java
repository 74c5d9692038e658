package dev.makeroom.cluster;

import dev.makeroom.mapping.ObjectNames;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * One informer's event handler: turns notifications into {@link ClusterEvent}s on the applier's
 * queue, in O(1) and without blocking, and counts them by what they meant.
 *
 * <p>The informers keep only key, UID and resourceVersion ({@link MetadataItemStore}), so any object
 * fabric8 hands back from its own store is a skeleton: a resync's update carries one as both objects, a relist's
 * update carries one as the old object, and a delete whose final state is unknown carries one.
 * Skeletons are used only for what they hold: an unchanged resourceVersion is not news, a changed
 * UID means the name now belongs to another object, and a delete needs only key and UID.
 */
final class EnqueueingHandler<T extends HasMetadata> implements ResourceEventHandler<T> {

    /** What one notification meant to the view. */
    enum Outcome {
        ADDED, UPDATED, DELETED, REPLACED, UNCHANGED
    }

    private static final Logger log = LoggerFactory.getLogger(EnqueueingHandler.class);

    private final ClusterEvent.Kind kind;
    private final Queue<ClusterEvent> queue;
    private final Function<T, Object> lean;
    private final Map<Outcome, LongAdder> counts = new EnumMap<>(Outcome.class);
    private volatile boolean listed;

    /** Queues the objects as they come. */
    EnqueueingHandler(ClusterEvent.Kind kind, Queue<ClusterEvent> queue) {
        this(kind, queue, object -> object);
    }

    /** Queues what {@code lean} keeps of each object (the full object is then dropped here). */
    EnqueueingHandler(ClusterEvent.Kind kind, Queue<ClusterEvent> queue, Function<T, Object> lean) {
        this.kind = kind;
        this.queue = queue;
        this.lean = lean;
        for (Outcome outcome : Outcome.values()) {
            counts.put(outcome, new LongAdder());
        }
    }

    @Override
    public void onAdd(T obj) {
        counts.get(Outcome.ADDED).increment();
        enqueue(false, obj);
    }

    @Override
    public void onUpdate(T oldObj, T newObj) {
        if (sameVersion(oldObj, newObj)) {
            counts.get(Outcome.UNCHANGED).increment(); // a resync: nothing to apply
            return;
        }
        if (otherObject(oldObj, newObj)) {
            // deleted and recreated under the same name while the watch was down, seen by a relist
            counts.get(Outcome.REPLACED).increment();
            enqueue(true, oldObj);
        } else {
            counts.get(Outcome.UPDATED).increment();
        }
        enqueue(false, newObj);
    }

    @Override
    public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        counts.get(Outcome.DELETED).increment();
        enqueue(true, obj);
    }

    private void enqueue(boolean deleted, T obj) {
        Object payload;
        try {
            payload = lean.apply(obj);
        } catch (RuntimeException e) {
            log.warn("ignoring a {} makeroom cannot read ({}): {}", kind, ObjectNames.of(obj), e.getMessage());
            return;
        }
        queue.add(new ClusterEvent(kind, deleted, payload));
    }

    /**
     * fabric8 tells handlers a list is complete after every notification of that list: the
     * informer's own "synced" comes earlier, while notifications may still be on their way here.
     */
    @Override
    public void onList(String resourceVersion, boolean remainedEmpty) {
        listed = true;
    }

    /** Whether every object of a first list has been handed to the queue. */
    boolean listed() {
        return listed;
    }

    long count(Outcome outcome) {
        return counts.get(outcome).sum();
    }

    private static boolean sameVersion(HasMetadata a, HasMetadata b) {
        String before = a.getMetadata() == null ? null : a.getMetadata().getResourceVersion();
        return before != null && b.getMetadata() != null && before.equals(b.getMetadata().getResourceVersion());
    }

    private static boolean otherObject(HasMetadata a, HasMetadata b) {
        String before = a.getMetadata() == null ? null : a.getMetadata().getUid();
        String after = b.getMetadata() == null ? null : b.getMetadata().getUid();
        return before != null && after != null && !Objects.equals(before, after);
    }
}
