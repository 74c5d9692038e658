package dev.makeroom.core.queue;

/**
 * A pod that would take its queue, or an ancestor, over its {@code max} of one resource: the first
 * such queue from the leaf up, what it uses, what the pod asks and the max.
 */
public record QueueOverMax(String queue, String resource, long used, long asked, long max) {

    /** In the words the filter verb answers with. */
    public String describe() {
        return "queue " + queue + " would exceed its max " + resource + " (uses " + used + ", pod asks " + asked
                + ", max " + max + ")";
    }
}
