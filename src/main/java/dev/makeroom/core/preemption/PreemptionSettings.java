package dev.makeroom.core.preemption;

import dev.makeroom.core.room.PdbMode;
import dev.makeroom.core.room.Strategy;
import java.time.Duration;

/** The knobs of a preemption decision. */
public record PreemptionSettings(Strategy strategy, AnswerMode answer, PdbMode pdb, Duration budget) {

    public static final PreemptionSettings DEFAULTS =
            new PreemptionSettings(Strategy.MINIMAL, AnswerMode.BEST, PdbMode.PREFER, Duration.ofMillis(50));
}
