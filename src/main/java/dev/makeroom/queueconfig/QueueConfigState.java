package dev.makeroom.queueconfig;

import dev.makeroom.core.queue.QueueTree;

import java.time.Instant;
import java.util.List;

/**
 * The queue configuration in force and where it came from, with the last rejected one's error
 * (null when the latest document was accepted) and the warnings of the one in force.
 */
public record QueueConfigState(QueueTree tree, String source, Instant loadedAt, List<String> warnings,
                               String error, Instant errorAt) {

    public QueueConfigState {
        warnings = List.copyOf(warnings);
    }

    QueueConfigState rejected(String why, Instant at) {
        return new QueueConfigState(tree, source, loadedAt, warnings, why, at);
    }
}
