package dev.makeroom.core.rounds;

/**
 * Why a pod is moved: a policy's name, as moves, skips, plans, metrics and the debug API say it
 * ({@code REBALANCE}, {@code CONSOLIDATE}). Each policy names itself in its own folder (its {@code KIND},
 * its {@link PolicyReader#kind}), so a new policy adds no name here.
 */
public record ReschedulePolicy(String name) {

    public ReschedulePolicy {
        if (name == null || !name.matches("[A-Z][A-Z0-9_]*")) {
            throw new IllegalArgumentException("a policy's name is upper-case letters, digits and _, not " + name);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
