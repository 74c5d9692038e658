package dev.makeroom.web.json;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.preemption.PreemptionDecision;
import dev.makeroom.core.room.NodeVerdict;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A decision as the scheduler reads it: chosen nodes in preference order, victims highest priority first. */
public final class PreemptionAnswer {

    private PreemptionAnswer() {
    }

    public static Map<String, WireDtos.MetaVictims> toWire(PreemptionDecision decision) {
        Map<String, WireDtos.MetaVictims> answer = new LinkedHashMap<>();
        for (NodeVerdict verdict : decision.chosen()) {
            List<PodInfo> victims = verdict.victims().victims();
            if (victims.isEmpty()) {
                continue; // the scheduler rejects a node without victims
            }
            answer.put(verdict.node(), new WireDtos.MetaVictims(
                    victims.stream().map(p -> new WireDtos.MetaPod(p.uid())).toList(),
                    verdict.victims().pdbViolations()));
        }
        return answer;
    }
}
