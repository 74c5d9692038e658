package dev.makeroom.core.rounds;

import dev.makeroom.core.model.PodRef;

/** A planned move: evict {@code pod} from {@code from}; makeroom has checked it fits on {@code to}. */
public record Move(PodRef pod, String from, String to, ReschedulePolicy policy, String reason) {
}
