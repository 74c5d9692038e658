package dev.makeroom.core.rounds;

import java.util.Set;

/**
 * What the policies document's reader asks of one policy: the key of its section under
 * {@code policies}, the keys the section may hold, and its settings read from it, defaults filled in
 * and checked. The reader knows no policy's fields: it hands each policy its section
 * ({@link PolicySection}) in the order the planner registers them.
 */
public interface PolicyReader<S extends PolicySettings> {

    /** The policy's name, as moves, skips and plans say it. */
    ReschedulePolicy kind();

    /** The key of its section under {@code policies}. */
    String section();

    /** The keys its section may hold; any other is refused, named. */
    Set<String> keys();

    Class<S> settingsType();

    /** Its settings from {@code section} (empty where the document has none: its defaults). */
    S read(PolicySection section);
}
