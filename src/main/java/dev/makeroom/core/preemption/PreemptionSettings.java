package dev.makeroom.core.preemption;

import dev.makeroom.core.room.PdbMode;
import dev.makeroom.core.room.Strategy;
import dev.makeroom.core.room.WorkPrice;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The knobs of a preemption decision. {@code price} weighs what victims lose: the objective when it
 * is {@link PreemptionObjective#WORK_LOST}, and what decisions show under either objective.
 */
public record PreemptionSettings(Strategy strategy, AnswerMode answer, PdbMode pdb, Duration budget,
                                 PreemptionObjective objective, WorkPrice price) {

    /** The work-lost price without weights of its own: cpu 1 a core, GPUs 50 a unit, a day's progress at most. */
    public static final WorkPrice DEFAULT_PRICE = WorkPrice.of(Map.of(), Duration.ofHours(24));

    public static final PreemptionSettings DEFAULTS =
            new PreemptionSettings(Strategy.MINIMAL, AnswerMode.BEST, PdbMode.PREFER, Duration.ofMillis(50));

    /** The default objective, with the default price for what decisions show. */
    public PreemptionSettings(Strategy strategy, AnswerMode answer, PdbMode pdb, Duration budget) {
        this(strategy, answer, pdb, budget, PreemptionObjective.KUBERNETES, DEFAULT_PRICE);
    }

    public PreemptionSettings {
        if (!price.counts()) {
            throw new IllegalArgumentException("the price must weigh something: it is shown even where it is not minimised");
        }
    }

    /** The price the search minimises at {@code now}: none under the default objective. */
    public WorkPrice.At searchedAt(Instant now) {
        return objective == PreemptionObjective.WORK_LOST ? price.at(now) : WorkPrice.At.NONE;
    }

    /** The same settings under {@code objective}. */
    public PreemptionSettings with(PreemptionObjective objective) {
        return new PreemptionSettings(strategy, answer, pdb, budget, objective, price);
    }
}
