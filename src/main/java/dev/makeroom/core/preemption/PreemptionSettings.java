package dev.makeroom.core.preemption;

import dev.makeroom.core.room.PdbMode;
import dev.makeroom.core.room.Strategy;
import dev.makeroom.core.room.WorkPrice;
import dev.makeroom.core.room.WorkRank;

import java.time.Duration;
import java.time.Instant;

/**
 * The knobs of a preemption decision. {@code price} weighs what victims lose: before the count when the
 * objective is {@link PreemptionObjective#WORK_LOST}, as the first tie-break under the default one, and what
 * decisions show under either objective.
 */
public record PreemptionSettings(Strategy strategy, AnswerMode answer, PdbMode pdb, Duration budget,
                                 PreemptionObjective objective, WorkPrice price) {

    /** The work-lost price without weights of its own: cpu 1 a core, GPUs 50 a unit, a day's progress at most. */
    public static final WorkPrice DEFAULT_PRICE = WorkPrice.DEFAULT;

    public static final PreemptionSettings DEFAULTS =
            new PreemptionSettings(Strategy.MINIMAL, AnswerMode.BEST, PdbMode.PREFER, Duration.ofMillis(50));

    /** The default objective, with the default price for what decisions show. */
    public PreemptionSettings(Strategy strategy, AnswerMode answer, PdbMode pdb, Duration budget) {
        this(strategy, answer, pdb, budget, PreemptionObjective.KUBERNETES, DEFAULT_PRICE);
    }

    public PreemptionSettings {
        if (!price.counts()) {
            throw new IllegalArgumentException("the price must weigh something: every decision weighs and shows it");
        }
    }

    /**
     * The price the search minimises at {@code now}: before the count under the work-lost objective, as the
     * first gentleness tie-break under the default one.
     */
    public WorkPrice.At searchedAt(Instant now) {
        return price.at(now, objective == PreemptionObjective.WORK_LOST ? WorkRank.BEFORE_COUNT : WorkRank.FIRST_TIE_BREAK);
    }

    /** The same settings under {@code objective}. */
    public PreemptionSettings with(PreemptionObjective objective) {
        return new PreemptionSettings(strategy, answer, pdb, budget, objective, price);
    }
}
