package dev.makeroom.core.rounds;

import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;

/**
 * A rule one policy keeps over every other policy's moves: where a moved pod may land. Rebalance's is
 * that a pod moved for another policy does not make its new node one to rebalance. A policy gives its
 * rule ({@link RoundPolicy#landingRule}); the round asks them all ({@link Round#landingAllowed}).
 */
@FunctionalInterface
public interface LandingRule {

    /** No rule: every landing is allowed. */
    LandingRule NONE = (round, target, pod) -> true;

    /** Whether {@code pod} may land on {@code target}, as {@code round} has planned the cluster so far. */
    boolean allows(Round round, NodeInfo target, PodInfo pod);
}
