package dev.makeroom.core.model;

/** A PriorityClass: its value and whether its pods opted out of being preempted. */
public record PriorityClassInfo(String name, int value, boolean optedOut) {
}
