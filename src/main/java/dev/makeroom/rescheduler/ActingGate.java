package dev.makeroom.rescheduler;

import java.util.Optional;

/**
 * Whether this replica may act on the cluster now (evict, hold, taint, release, announce): only while it
 * serves the extender verbs and reports Ready. The rescheduler's moves rely on the verbs (a moved pod's
 * landing and a pending pod's held room are honoured by makeroom's filter), so an eviction sent while
 * the scheduler cannot reach that filter makes room for whichever pod the scheduler tries first.
 */
@FunctionalInterface
public interface ActingGate {

    /** Rounds driven by hand (tests), where nothing relies on an extender port: always open. */
    ActingGate OPEN = Optional::empty;

    /** Why this replica must not act now; empty when it may. */
    Optional<Shut> shut();

    /** Why the gate is shut, in words an operator reads in the log and {@code /debug/rescheduler}. */
    record Shut(String why) {
    }
}
