package dev.makeroom.core.reschedule;

import dev.makeroom.core.model.HostPort;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.model.Taint;
import dev.makeroom.core.model.Toleration;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The oracle of the planner's properties: the scheduler's filters makeroom checks before a move,
 * written out from the README independently of {@link PlannedCluster}: whether {@code pod} may run on
 * {@code node} beside the pods {@code there}.
 */
final class LandingOracle {

    private LandingOracle() {
    }

    static boolean landsOn(PodInfo pod, NodeInfo node, List<PodInfo> there) {
        if (node.admission().unschedulable() && !tolerates(pod, Taint.UNSCHEDULABLE)) {
            return false;
        }
        for (Taint taint : node.admission().taints()) {
            if (!taint.effect().equals("PreferNoSchedule") && !tolerates(pod, taint)) {
                return false;
            }
        }
        if (!pod.constraints().nodeTerms().isEmpty()
                && pod.constraints().nodeTerms().stream().noneMatch(t -> t.matches(node.labels()))) {
            return false;
        }
        Map<String, Long> used = new HashMap<>();
        for (PodInfo other : there) {
            other.requests().toMap().forEach((r, v) -> used.merge(r, v, Long::sum));
            for (HostPort port : other.hostPorts()) {
                if (pod.hostPorts().stream().anyMatch(port::conflictsWith)) {
                    return false;
                }
            }
            if (apart(pod, other) || apart(other, pod)) {
                return false;
            }
        }
        if (there.size() + 1 > node.allocatable().get(Resources.PODS)) {
            return false;
        }
        for (var want : pod.requests().toMap().entrySet()) {
            if (used.getOrDefault(want.getKey(), 0L) + want.getValue() > node.allocatable().get(want.getKey())) {
                return false;
            }
        }
        return true;
    }

    private static boolean tolerates(PodInfo pod, Taint taint) {
        for (Toleration t : pod.tolerations()) {
            boolean keyOk = t.key() == null ? "Exists".equals(t.operator()) : t.key().equals(taint.key())
                    && ("Exists".equals(t.operator()) || java.util.Objects.equals(t.value(), taint.value()));
            if (keyOk && (t.effect() == null || t.effect().equals(taint.effect()))) {
                return true;
            }
        }
        return false;
    }

    private static boolean apart(PodInfo owner, PodInfo other) {
        return owner.antiAffinity().stream().anyMatch(t -> PodAffinityTerm.HOSTNAME.equals(t.topologyKey())
                && owner.namespace().equals(other.namespace()) && t.selector().matches(other.labels()));
    }
}
