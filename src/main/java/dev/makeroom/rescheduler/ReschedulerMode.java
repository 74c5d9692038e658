package dev.makeroom.rescheduler;

/** Whether rounds only plan ({@code dry-run}) or also evict ({@code evict}). */
public enum ReschedulerMode {
    DRY_RUN, EVICT
}
