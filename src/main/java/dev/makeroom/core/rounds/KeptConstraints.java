package dev.makeroom.core.rounds;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.SpreadConstraint;
import dev.makeroom.core.placement.AffinityMatches;
import dev.makeroom.core.placement.PlacementState;
import dev.makeroom.core.placement.SnapshotState;
import dev.makeroom.core.placement.SpreadDomains;
import dev.makeroom.core.placement.Topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a move owes the pods that stay: the scheduler checked their required spread and affinity when
 * it placed them, and a move must not break them afterwards (the pod's own landing is the engine's).
 * <ul>
 *   <li><b>Spread</b>: for each topology spread constraint of another placed pod that counts the moved
 *       pod, the skew after the move (one fewer in the domain it leaves, one more in the domain it
 *       lands in, where those are counted) must be at most maxSkew, or at most what it was when the
 *       round began. The bar is the round's start, not the state before this move, so whether a set
 *       of moves passes does not depend on the order they are tried in.</li>
 *   <li><b>Affinity</b>: another placed pod whose required affinity was met when the round began, and
 *       which the moved pod meets (it matches all its terms), must keep a matching pod in its domain
 *       when the move takes this one out.</li>
 * </ul>
 * Anti-affinity needs nothing here: a pod leaving a domain cannot break it, and the landing is the
 * engine's InterPodAffinity, which reads existing pods' terms both ways. Constraints are gathered once
 * (replicas of one controller share theirs); domain counts are taken again after each change of the state.
 */
final class KeptConstraints {

    /** A constraint as its owners share it: one of them, and the uids of all. */
    private record Owned(PodInfo owner, SpreadConstraint constraint, Set<String> owners) {

        /** Whether a pod not among {@code moved} owns it: a moved pod's own constraint is its landing's, the engine's. */
        boolean ownedBeyond(Set<String> moved) {
            return !moved.containsAll(owners);
        }

        /** Whether a skew of {@code would}, against {@code was} at the round's start, keeps it. */
        OthersKept raisedTo(long would, long was) {
            if (would <= Math.max(constraint.maxSkew(), was)) {
                return OthersKept.KEPT;
            }
            return new OthersKept.Broken(OthersKept.Constraint.SPREAD, owner.ref(), "it would raise the skew of the topology spread on " + constraint.topologyKey() + " of "
                    + owner.ref() + (owner.controller() == null ? "" : " and its " + owner.controller().kind()
                    + "'s pods") + " to " + would + " (maxSkew " + constraint.maxSkew() + ", " + was
                    + " when the round began)");
        }
    }

    private final PlannedCluster state;
    private final PlacementState start; // the round's start: the bar a move is held to
    private final List<Owned> spread;
    private final Map<List<Object>, Owned> byKey = new LinkedHashMap<>();
    private final List<PodInfo> withAffinity;
    private final List<PodInfo> zoneAntiAffinity;
    // by identity: an Owned's hash would walk its owners, thousands of uids for a large workload
    private final Map<Owned, Long> skewAtStart = new IdentityHashMap<>();
    private final Map<String, Boolean> metAtStart = new HashMap<>();
    // on the planned state: counted once per constraint, then kept as moves are applied and undone
    private final Map<Owned, Map<String, Long>> counts = new IdentityHashMap<>();

    KeptConstraints(ClusterSnapshot snapshot, PlannedCluster state) {
        this.state = state;
        this.start = new SnapshotState(snapshot, null);
        Map<List<Object>, Owned> distinct = this.byKey;
        List<PodInfo> affinity = new ArrayList<>();
        for (PodInfo pod : snapshot.podsWithSpreadOrAffinity()) {
            if (pod.terminating()) {
                continue;
            }
            for (SpreadConstraint c : pod.constraints().spread()) {
                // one per namespace, constraint and what decides the counted nodes
                distinct.computeIfAbsent(key(pod, c), k -> new Owned(pod, c, new HashSet<>())).owners().add(pod.uid());
            }
            if (!pod.constraints().affinity().isEmpty()) {
                affinity.add(pod);
            }
        }
        this.spread = List.copyOf(distinct.values());
        this.zoneAntiAffinity = snapshot.podsWithAntiAffinity().stream().filter(p -> p.antiAffinity().stream()
                .anyMatch(t -> !t.nodeLocal())).toList();
        this.withAffinity = affinity;
    }

    /**
     * Whether a move of {@code pod} could matter to another pod's spread or affinity, or to its own
     * landing beside others': what makes where a set of moved pods lands depend on the order of landing.
     */
    boolean interPod(PodInfo pod) {
        if (!pod.constraints().spread().isEmpty() || !pod.constraints().affinity().isEmpty()
                || pod.antiAffinity().stream().anyMatch(t -> !t.nodeLocal())) {
            return true;
        }
        for (PodInfo other : zoneAntiAffinity) { // anti-affinity by node is node-local: only wider domains tie landings
            for (PodAffinityTerm term : other.antiAffinity()) {
                if (!term.nodeLocal() && term.selects(other, pod)) {
                    return true;
                }
            }
        }
        for (Owned owned : spread) {
            if (owned.constraint().counts(owned.owner(), pod)) { // moving it changes their counts
                return true;
            }
        }
        for (PodInfo owner : withAffinity) {
            if (PodAffinityTerm.allSelect(owner.constraints().affinity(), owner, pod)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the state as planned now, with {@code moved} (the pods of one plan, as they landed) moved,
     * leaves every pod that stays no worse off than when the round began: the rule of
     * {@link #brokenBy} for a plan of several moves, asked once they all have landed.
     */
    OthersKept brokenNow(List<PodInfo> moved) {
        Set<String> uids = new HashSet<>();
        moved.forEach(p -> uids.add(p.uid()));
        for (Owned owned : spread) {
            SpreadConstraint c = owned.constraint();
            if (!owned.ownedBeyond(uids) || moved.stream().noneMatch(p -> c.counts(owned.owner(), p))) {
                continue;
            }
            OthersKept raised = owned.raisedTo(SpreadDomains.skew(c, countsOf(owned)), skewAtStart(owned));
            if (!raised.kept()) {
                return raised;
            }
        }
        for (PodInfo owner : withAffinity) {
            List<PodAffinityTerm> terms = owner.constraints().affinity();
            boolean concerned = moved.stream().anyMatch(p -> PodAffinityTerm.allSelect(terms, owner, p));
            if (!concerned || uids.contains(owner.uid()) || !metAtStart.computeIfAbsent(owner.uid(), u -> affinityMetAtStart(owner))) {
                continue;
            }
            NodeInfo home = state.node(state.nodeOf(owner));
            for (PodAffinityTerm term : terms) {
                String domain = home == null ? null : Topology.domainOf(home, term.topologyKey());
                if (domain == null || !AffinityMatches.anyIn(state, owner, term.topologyKey(), domain, null)) {
                    return new OthersKept.Broken(OthersKept.Constraint.AFFINITY, owner.ref(), "it leaves no pod in "
                            + term.topologyKey() + "=" + domain + " that the required pod affinity of " + owner.ref()
                            + " needs");
                }
            }
        }
        return OthersKept.KEPT;
    }

    private long skewAtStart(Owned owned) {
        return skewAtStart.computeIfAbsent(owned, o -> SpreadDomains.skew(o.constraint(),
                SpreadDomains.count(o.constraint(), o.owner(), start, o.owner().constraints().spread(), null)));
    }

    /** Whether moving {@code pod} from {@code from} to {@code to} keeps the constraints of the pods that stay. */
    OthersKept brokenBy(PodInfo pod, NodeInfo from, NodeInfo to) {
        OthersKept spreadKept = spreadBrokenBy(pod, from, to);
        return spreadKept.kept() ? affinityBrokenBy(pod, from, to) : spreadKept;
    }

    private OthersKept spreadBrokenBy(PodInfo pod, NodeInfo from, NodeInfo to) {
        for (Owned owned : spread) {
            SpreadConstraint c = owned.constraint();
            PodInfo owner = owned.owner();
            if (pod.terminating() || !owned.ownedBeyond(Set.of(pod.uid())) || !c.counts(owner, pod)) {
                continue;
            }
            Map<String, Long> before = countsOf(owned);
            Map<String, Long> after = new HashMap<>(before);
            List<SpreadConstraint> all = owner.constraints().spread();
            SpreadDomains.moved(after, SpreadDomains.countedDomain(from, c, owner, all),
                    SpreadDomains.countedDomain(to, c, owner, all));
            OthersKept raised = owned.raisedTo(SpreadDomains.skew(c, after), skewAtStart(owned));
            if (!raised.kept()) {
                return raised;
            }
        }
        return OthersKept.KEPT;
    }

    /**
     * Keeps the counts made so far true once {@code pod} moved from {@code from} to {@code to} on the
     * planned state (a move undone is a move back): counting the cluster again after every move of a
     * round made a round with a large workload's spread take seconds.
     */
    void moved(PodInfo pod, NodeInfo from, NodeInfo to) {
        if (pod.terminating()) {
            return;
        }
        counts.forEach((owned, byDomain) -> {
            SpreadConstraint c = owned.constraint();
            PodInfo owner = owned.owner();
            if (!c.counts(owner, pod)) {
                return;
            }
            List<SpreadConstraint> all = owner.constraints().spread();
            SpreadDomains.moved(byDomain, SpreadDomains.countedDomain(from, c, owner, all),
                    SpreadDomains.countedDomain(to, c, owner, all));
        });
    }

    /** One per namespace, constraint and what decides the counted nodes: pods alike in these count alike. */
    private static List<Object> key(PodInfo pod, SpreadConstraint c) {
        return List.of(pod.namespace(), c, pod.constraints().spread(), pod.constraints().nodeTerms(), pod.tolerations());
    }

    /**
     * {@code pod}'s constraint {@code c} counted on the planned state as PodTopologySpread's pre-filter
     * counts it (never counting {@code pod} itself), from the counts kept for a running pod alike; null
     * when no running pod owns the same constraint. A round asks this of every pod it tries to move:
     * counting the cluster for each took seconds with a large workload's spread.
     */
    Map<String, Long> countsFor(PodInfo pod, SpreadConstraint c) {
        Owned owned = byKey.get(key(pod, c));
        if (owned == null) {
            return null;
        }
        Map<String, Long> counts = new HashMap<>(countsOf(owned));
        String home = state.nodeOf(pod);
        NodeInfo node = home == null ? null : state.node(home);
        if (!pod.terminating() && c.counts(owned.owner(), pod)) { // counted where it runs, as it will not be
            SpreadDomains.moved(counts, SpreadDomains.countedDomain(node, c, owned.owner(),
                    owned.owner().constraints().spread()), null);
        }
        return counts;
    }

    private Map<String, Long> countsOf(Owned owned) {
        return counts.computeIfAbsent(owned, o ->
                SpreadDomains.count(o.constraint(), o.owner(), state, o.owner().constraints().spread(), null));
    }

    private OthersKept affinityBrokenBy(PodInfo pod, NodeInfo from, NodeInfo to) {
        for (PodInfo owner : withAffinity) {
            List<PodAffinityTerm> terms = owner.constraints().affinity();
            if (owner.uid().equals(pod.uid()) || !PodAffinityTerm.allSelect(terms, owner, pod)
                    || !metAtStart.computeIfAbsent(owner.uid(), u -> affinityMetAtStart(owner))) {
                continue;
            }
            NodeInfo home = state.node(state.nodeOf(owner));
            if (home == null) {
                continue;
            }
            for (PodAffinityTerm term : terms) {
                String domain = Topology.domainOf(home, term.topologyKey());
                boolean leaves = domain != null && domain.equals(Topology.domainOf(from, term.topologyKey()))
                        && !domain.equals(Topology.domainOf(to, term.topologyKey()));
                if (leaves && !AffinityMatches.anyIn(state, owner, term.topologyKey(), domain, pod)) {
                    return new OthersKept.Broken(OthersKept.Constraint.AFFINITY, owner.ref(), "it is the last pod in "
                            + term.topologyKey() + "=" + domain + " that the required pod affinity of " + owner.ref()
                            + " needs");
                }
            }
        }
        return OthersKept.KEPT;
    }

    /** Whether each of the owner's terms found another pod matching all of them in its domain when the round began. */
    private boolean affinityMetAtStart(PodInfo owner) {
        NodeInfo home = start.node(owner.nodeName());
        for (PodAffinityTerm term : owner.constraints().affinity()) {
            String domain = home == null ? null : Topology.domainOf(home, term.topologyKey());
            if (domain == null || !AffinityMatches.anyIn(start, owner, term.topologyKey(), domain, null)) {
                return false;
            }
        }
        return true;
    }
}
