package dev.makeroom.core.rounds.consolidate;

import dev.makeroom.core.model.ConsolidationMark;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.rounds.InvalidPolicySettingsException;
import dev.makeroom.core.rounds.Kept;
import dev.makeroom.core.rounds.LimitCheck;
import dev.makeroom.core.rounds.Move;
import dev.makeroom.core.rounds.MoveBlocker;
import dev.makeroom.core.rounds.NodeDrain;
import dev.makeroom.core.rounds.PlannedCluster;
import dev.makeroom.core.rounds.PolicySection;
import dev.makeroom.core.rounds.ReschedulePolicy;
import dev.makeroom.core.rounds.RescheduleSettings;
import dev.makeroom.core.rounds.Round;
import dev.makeroom.core.rounds.RoundPolicy;
import dev.makeroom.core.rounds.Skip;
import dev.makeroom.core.rounds.SkipCategory;
import dev.makeroom.core.rounds.rebalance.RebalanceSettings;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The consolidate policy (the descheduler's HighNodeUtilization, made safe): empties the least used
 * nodes so the cluster autoscaler (or Karpenter) can remove them.
 *
 * <p><b>Design.</b> The node's state lives on the node, not in makeroom: a node being emptied carries
 * the taint {@value ConsolidationMark#TAINT_KEY}{@code :NoSchedule} (its value: when the drain started, in epoch
 * seconds), so the scheduler sends no replacement back to it and a new leader carries on where the old
 * one stopped. Every round, first for each such node: once only pods that belong to the node are left
 * (DaemonSet and static pods) it is {@code EMPTIED}: the taint's value says so and since when, and it
 * stays for {@code keepEmptyFor}, so that nothing lands there before the autoscaler removes the node
 * (untainted at once, the scheduler refilled emptied nodes on a real cluster and rounds emptied them
 * twice); a node still there after that is released, untainted, and so is one a waiting pod needs
 * ({@link KeptNodeYield}: it would fit there and nowhere else), at once; a drain such a pod needs is
 * abandoned. Past {@code drainWithin}, or with the
 * policy off, a drain is abandoned; otherwise the landing of every pod still on it is proven again on the
 * round's planned state, and if one no longer lands the drain is abandoned — all or nothing, never a
 * half-emptied node left tainted. Then, while fewer than {@code nodesAtOnce} nodes drain, the least
 * used nodes below every {@code below} threshold are tried, at most {@link #TRIED_PER_ROUND} a round:
 * one starts only if none of its pods is kept in place (a blocker, out of scope, held back after a
 * refusal, a budget that allows nothing now, the hour's limits) and every one of them lands, each with
 * the ones before applied, on another node that runs pods already and stays at or under every
 * {@code ceiling} with it — the fullest such node first, so the pods pack rather than spread (and an
 * empty node is never filled to empty another). A proof that fails is undone whole.
 * Of a proven plan the round evicts what the limits and budgets allow now; the rest wait, their
 * landings kept in the planned state so no later plan counts the same room. The rescheduler untaints
 * a node whose eviction the API refuses ({@code NodeTaints}).
 *
 * <p>Gangs: a member never moves alone ({@link MoveBlocker#GANG_MEMBER}). With {@code moveWholeGangs}
 * the pods to move are the node's and every other running member of their gangs, wherever it runs;
 * every one of them must land (a companion not back on its own node), and a gang's members are evicted
 * in one round or all wait, so no round leaves a gang split (the rescheduler asks the Eviction API,
 * as a dry run, for every member before the first eviction).
 */
public final class ConsolidatePolicy implements RoundPolicy<ConsolidateSettings> {

    /**
     * Its name in moves and skips; it moves a pod off one of the least used nodes, which is being emptied for the
     * cluster autoscaler.
     */
    public static final ReschedulePolicy KIND = new ReschedulePolicy("CONSOLIDATE");

    /** Candidates proven per round, at most: an unprovable node costs a search over every other node. */
    static final int TRIED_PER_ROUND = 10;

    @Override
    public ReschedulePolicy kind() {
        return KIND;
    }

    @Override
    public String section() {
        return "consolidate";
    }

    @Override
    public Set<String> keys() {
        return Set.of("enabled", "below", "ceiling", "drainWithin", "nodesAtOnce", "keepEmptyFor", "moveWholeGangs");
    }

    @Override
    public Class<ConsolidateSettings> settingsType() {
        return ConsolidateSettings.class;
    }

    /**
     * Off unless turned on; on, it needs {@code below} and {@code ceiling}, each {@code below} under its
     * {@code ceiling}, and with rebalancing on no {@code ceiling} above its {@code high} (a node packed to the
     * ceiling would be shed again). One node at a time, a drain abandoned after 15 min, an emptied node kept
     * 10 min, gangs kept in place.
     */
    @Override
    public ConsolidateSettings read(PolicySection section) {
        boolean enabled = section.bool("enabled", false);
        Map<String, Integer> below = section.percents("below", Map.of());
        Map<String, Integer> ceiling = section.percents("ceiling", Map.of());
        if (enabled && (below.isEmpty() || ceiling.isEmpty())) {
            throw new InvalidPolicySettingsException("policies.consolidate needs below and ceiling thresholds");
        }
        below.forEach((resource, percent) -> {
            Integer top = ceiling.get(resource);
            if (top != null && percent >= top) {
                throw new InvalidPolicySettingsException(section.path("below") + "." + resource + " (" + percent
                        + ") must be below " + section.path("ceiling") + "." + resource + " (" + top + ")");
            }
        });
        RebalanceSettings rebalance = section.before(RebalanceSettings.class);
        Map<String, Integer> high = rebalance.enabled() ? rebalance.highPercent() : Map.of();
        ceiling.forEach((resource, percent) -> {
            Integer most = high.get(resource);
            if (most != null && percent > most) {
                throw new InvalidPolicySettingsException(section.path("ceiling") + "." + resource + " (" + percent
                        + ") must not be above policies.rebalance.high." + resource + " (" + most
                        + "): rebalance would shed a node consolidation packed");
            }
        });
        int nodesAtOnce = section.count("nodesAtOnce", 1);
        if (nodesAtOnce < 1) {
            throw section.invalid("nodesAtOnce", "must be 1 or more");
        }
        return new ConsolidateSettings(enabled, below, ceiling, section.positiveDuration("drainWithin",
                Duration.ofMinutes(15)), nodesAtOnce, section.duration("keepEmptyFor", Duration.ofMinutes(10)),
                section.bool("moveWholeGangs", false));
    }

    @Override
    public boolean runs(RescheduleSettings settings) {
        return true; // off, it still ends the drains under way
    }

    @Override
    public void plan(Round round) {
        ConsolidateSettings settings = round.settings(ConsolidateSettings.class);
        int draining = 0;
        List<PodInfo> waiting = null; // found once, for all kept nodes, when there is one
        for (NodeInfo node : round.nodes()) {
            ConsolidationMark mark = ConsolidationMark.of(node).orElse(null);
            if (mark != null && waiting == null) {
                waiting = KeptNodeYield.waiting(round);
            }
            if (mark != null && mark.emptied()) {
                keepOrRelease(round, node, mark.since(), settings, waiting);
            } else if (mark != null) {
                draining += carryOn(round, node, mark.since(), settings, waiting) ? 1 : 0;
            }
        }
        if (!settings.enabled()) {
            return;
        }
        int tried = 0;
        for (NodeInfo node : candidates(round, settings)) {
            if (draining >= settings.nodesAtOnce() || tried >= TRIED_PER_ROUND || round.full()) {
                break;
            }
            if (round.planned().receivesMoves(node)) {
                continue; // an earlier node's pods land here this round: it is no longer one to empty
            }
            tried++;
            draining += start(round, node, settings) ? 1 : 0;
        }
    }

    /**
     * An emptied node stays tainted for {@code keepEmptyFor}, so the scheduler puts nothing back before
     * the autoscaler removes it; still here after that (or with the policy off), it is released; and at
     * once for one of {@code waitingPods} that fits there alone ({@link KeptNodeYield}).
     */
    private static void keepOrRelease(Round round, NodeInfo node, Instant since,
                                      ConsolidateSettings settings, List<PodInfo> waitingPods) {
        PodInfo waiting = settings.enabled() ? KeptNodeYield.waitingFor(round, node, waitingPods) : null;
        if (!settings.enabled()) {
            round.drain(new NodeDrain(node.name(), NodeDrain.Step.RELEASE, "the consolidate policy is off", List.of()));
        } else if (waiting != null) {
            round.drain(new NodeDrain(node.name(), NodeDrain.Step.RELEASE, KeptNodeYield.why(waiting) + "; back in service",
                    List.of(), waiting.ref()));
        } else if (Duration.between(since, round.now()).compareTo(settings.keepEmptyFor()) >= 0) {
            round.drain(new NodeDrain(node.name(), NodeDrain.Step.RELEASE, "kept empty for "
                    + settings.keepEmptyFor().toMinutes() + "m and not removed; back in service", List.of()));
        }
    }

    /** A node already draining: emptied, abandoned or continued; whether it still drains. */
    private static boolean carryOn(Round round, NodeInfo node, Instant since,
                                   ConsolidateSettings settings, List<PodInfo> waitingPods) {
        List<PodInfo> left = leaving(round, node);
        if (left.isEmpty()) {
            round.drain(new NodeDrain(node.name(), NodeDrain.Step.EMPTIED, "only pods that belong to the node are"
                    + " left; it stays tainted for the cluster autoscaler, at most " + settings.keepEmptyFor().toMinutes()
                    + "m", List.of()));
            return false;
        }
        if (!settings.enabled()) {
            round.drain(new NodeDrain(node.name(), NodeDrain.Step.ABANDON, "the consolidate policy is off", List.of()));
            return false;
        }
        PodInfo waiting = KeptNodeYield.waitingFor(round, node, waitingPods);
        if (waiting != null) {
            round.drain(new NodeDrain(node.name(), NodeDrain.Step.ABANDON, KeptNodeYield.why(waiting), List.of(),
                    waiting.ref()));
            return false;
        }
        Duration taken = Duration.between(since, round.now());
        if (taken.compareTo(settings.drainWithin()) > 0) {
            round.drain(new NodeDrain(node.name(), NodeDrain.Step.ABANDON, "not emptied within "
                    + settings.drainWithin().toMinutes() + "m (" + left.size() + " pods left)", List.of()));
            return false;
        }
        List<PodInfo> toMove = withTheirGangs(round, left.stream().filter(p -> !p.terminating()).toList(), settings);
        // a pod refused lately: the node should have been untainted then; it was not, so abandon it now
        Optional<Kept> kept = blocked(round, toMove, settings.moveWholeGangs()).or(() -> refusedLately(round, toMove));
        Proof proof = kept.isEmpty() ? prove(round, node, toMove, settings) : null;
        if (!(proof instanceof Proven proven)) {
            round.drain(new NodeDrain(node.name(), NodeDrain.Step.ABANDON,
                    kept.map(Kept::text).orElseGet(() -> ((NoLanding) proof).text()), List.of()));
            return false;
        }
        round.drain(new NodeDrain(node.name(), NodeDrain.Step.CONTINUE, toMove.isEmpty()
                ? "waiting for " + left.size() + " terminating pods to finish" : "every pod left still lands elsewhere",
                proven.landings()));
        enactAllowed(round, node, proven, settings);
        return true;
    }

    /** A candidate: started if every pod may go and lands; whether it now drains. */
    private static boolean start(Round round, NodeInfo node, ConsolidateSettings settings) {
        List<PodInfo> own = leaving(round, node);
        List<PodInfo> pods = withTheirGangs(round, own, settings);
        Optional<Kept> kept = keptInPlace(round, pods, settings.moveWholeGangs());
        Proof proof = kept.isEmpty() ? prove(round, node, pods, settings) : null;
        if (!(proof instanceof Proven proven)) {
            round.drain(new NodeDrain(node.name(), NodeDrain.Step.NOT_STARTED,
                    kept.map(Kept::text).orElseGet(() -> ((NoLanding) proof).text()), List.of()));
            return false;
        }
        round.planned().close(node.name());
        round.drain(new NodeDrain(node.name(), NodeDrain.Step.START, "below " + percents(settings.belowPercent())
                + "; its " + own.size() + " pods" + (pods.size() > own.size() ? " and the " + (pods.size() - own.size())
                + " other members of their gangs" : "") + " all land on other nodes at or under "
                + percents(settings.ceilingPercent()), proven.landings()));
        enactAllowed(round, node, proven, settings);
        return true;
    }

    /** Nodes below every {@code below} threshold, not draining, cordoned or reserved, with pods to move; least used first. */
    private static List<NodeInfo> candidates(Round round, ConsolidateSettings settings) {
        Map<String, Double> loads = new HashMap<>();
        List<NodeInfo> found = new ArrayList<>();
        for (NodeInfo node : round.nodes()) {
            if (!ConsolidationMark.isMarked(node) && !PlannedCluster.cordoned(node) && node.admission().reservations().isEmpty()
                    && !round.heldBackNodes().contains(node.name()) && !round.planned().receivesMoves(node)
                    && round.staysBelow(node, null, settings.belowPercent()) && occupied(round.planned(), node)) {
                found.add(node);
                loads.put(node.name(), round.load(node, settings.belowPercent().keySet()));
            }
        }
        found.sort(Comparator.comparingDouble((NodeInfo n) -> loads.get(n.name()))); // stable: by name among equals
        return found;
    }

    /** Whether the node runs a pod that does not belong to it (so the autoscaler would not remove it anyway). */
    private static boolean occupied(PlannedCluster planned, NodeInfo node) {
        for (PodInfo pod : planned.podsOn(node)) {
            if (!belongsToNode(pod)) {
                return true;
            }
        }
        return false;
    }

    private static boolean belongsToNode(PodInfo pod) {
        return pod.mirror() || (pod.controller() != null && pod.controller().isDaemonSet());
    }

    /** The node's pods that must leave for it to be empty: all but those that belong to it (DaemonSet, static). */
    private static List<PodInfo> leaving(Round round, NodeInfo node) {
        List<PodInfo> pods = new ArrayList<>();
        for (PodInfo pod : round.podsOn(node)) {
            if (!belongsToNode(pod)) {
                pods.add(pod);
            }
        }
        pods.sort(Comparator.comparing(PodInfo::name).thenComparing(PodInfo::namespace));
        return pods;
    }

    /**
     * {@code pods} and, when whole gangs may move, every other running member of each gang among them,
     * wherever it runs (not those this round already moves): a gang leaves whole or not at all, so its
     * members count as one unit, proven, limited and evicted together.
     */
    private static List<PodInfo> withTheirGangs(Round round, List<PodInfo> pods, ConsolidateSettings settings) {
        if (!settings.moveWholeGangs()) {
            return pods;
        }
        Map<String, PodInfo> unit = new LinkedHashMap<>();
        pods.forEach(p -> unit.put(p.uid(), p));
        for (PodInfo pod : pods) {
            if (pod.gang() != null) {
                for (PodInfo member : round.snapshot().runningMembersOf(pod.gang().key())) {
                    if (!round.moved().contains(member.uid())) {
                        unit.putIfAbsent(member.uid(), member);
                    }
                }
            }
        }
        return unit.size() == pods.size() ? pods : List.copyOf(unit.values());
    }

    /** The first of the pods this policy may never move (a blocker, out of scope); none when each may. */
    private static Optional<Kept> blocked(Round round, List<PodInfo> pods, boolean wholeGangs) {
        for (PodInfo pod : pods) {
            Optional<Kept> kept = round.neverMoved(pod, wholeGangs);
            if (kept.isPresent()) {
                SkipCategory category = kept.get().category();
                return Optional.of(new Kept(category, pod.ref() + (category == SkipCategory.OUT_OF_SCOPE
                        ? " is out of scope: " : " may not move: ") + kept.get().text()));
            }
        }
        return Optional.empty();
    }

    /** The first of the pods the Eviction API refused lately (its backoff not yet over); none when no pod is. */
    private static Optional<Kept> refusedLately(Round round, List<PodInfo> pods) {
        for (PodInfo pod : pods) {
            if (round.heldBack().contains(pod.uid())) {
                return Optional.of(new Kept(SkipCategory.BACKOFF,
                        pod.ref() + " is held back after the Eviction API refused it"));
            }
        }
        return Optional.empty();
    }

    /** What keeps the pods from all moving now or within the hour; none when all may. */
    private static Optional<Kept> keptInPlace(Round round, List<PodInfo> pods, boolean wholeGangs) {
        Optional<Kept> kept = blocked(round, pods, wholeGangs).or(() -> refusedLately(round, pods));
        if (kept.isPresent()) {
            return kept;
        }
        for (PodInfo pod : pods) {
            Optional<DisruptionBudget> budget = round.budgets().refusing(pod);
            if (budget.isPresent()) {
                return Optional.of(new Kept(SkipCategory.BUDGET,
                        pod.ref() + " may not move now: " + round.budgets().describe(budget.get())));
            }
        }
        return round.limits().exceededWithinHour(pods) instanceof LimitCheck.Passed passed
                ? Optional.of(new Kept(SkipCategory.LIMIT, "its " + pods.size() + " pods would pass " + passed.text()))
                : Optional.empty();
    }

    /** The landings of every pod, each with the ones before applied, or the first that has none (then nothing is applied). */
    private static Proof prove(Round round, NodeInfo node, List<PodInfo> pods,
                               ConsolidateSettings settings) {
        List<PodInfo> order = new ArrayList<>(pods); // the hardest to place first: the biggest share of the ceiling's resources
        Map<String, Double> shares = new HashMap<>();
        for (PodInfo pod : order) {
            shares.put(pod.uid(), share(pod, node, settings.ceilingPercent()));
        }
        order.sort(Comparator.comparingDouble((PodInfo p) -> -shares.get(p.uid())));
        List<Move> landings = new ArrayList<>();
        List<PodInfo> landed = new ArrayList<>();
        String because = "below " + percents(settings.belowPercent()) + ": emptying " + node.name()
                + " for the cluster autoscaler";
        for (PodInfo pod : order) {
            String from = round.planned().nodeOf(pod); // the node emptied, or a gang companion's own
            NodeInfo target = landing(round, node, from, pod, settings);
            if (target == null) {
                for (int i = landed.size() - 1; i >= 0; i--) {
                    round.planned().undo(landed.get(i), landings.get(i).from(), landings.get(i).to());
                }
                return new NoLanding(pod.ref() + " lands on no other node that stays at or under "
                        + percents(settings.ceilingPercent()));
            }
            round.planned().move(pod, from, target.name());
            landed.add(pod);
            landings.add(new Move(pod.ref(), from, target.name(), KIND, from.equals(node.name())
                    ? because : because + ": its gang " + pod.gang().name() + " moves whole"));
        }
        return new Proven(landed, landings);
    }

    /**
     * The fullest node that takes the pod and stays at or under the ceiling with it, or null: not the node
     * emptied, nor the one the pod leaves ({@code from}, another for a gang companion). Only a node that
     * runs pods of its own already: filling an empty node to empty another saves nothing.
     */
    private static NodeInfo landing(Round round, NodeInfo emptied, String from, PodInfo pod,
                                    ConsolidateSettings settings) {
        Map<String, Double> loads = new HashMap<>();
        List<NodeInfo> targets = new ArrayList<>();
        for (NodeInfo target : round.nodes()) {
            if (target != emptied && !target.name().equals(from) && round.planned().open(target) && occupied(round.planned(), target)
                    && round.staysAtOrUnder(target, pod, settings.ceilingPercent())) {
                targets.add(target);
                loads.put(target.name(), round.load(target, settings.ceilingPercent().keySet()));
            }
        }
        targets.sort(Comparator.comparingDouble((NodeInfo n) -> -loads.get(n.name())));
        for (NodeInfo target : targets) {
            if (round.planned().landing(pod, target).lands()) {
                return target;
            }
        }
        return null;
    }

    /**
     * Evicts, of a proven plan, what the limits and budgets allow now; the rest wait with their landings
     * kept. A gang moving whole goes in one round or waits whole: half of it evicted stops it all.
     */
    private static void enactAllowed(Round round, NodeInfo node, Proven proof, ConsolidateSettings settings) {
        Map<String, List<Integer>> gangs = new LinkedHashMap<>(); // by gang key: the plan's members, as indexes
        for (int i = 0; i < proof.pods().size(); i++) {
            PodInfo pod = proof.pods().get(i);
            if (settings.moveWholeGangs() && pod.gang() != null) {
                gangs.computeIfAbsent(pod.gang().key(), k -> new ArrayList<>()).add(i);
            }
        }
        for (List<Integer> members : gangs.values()) {
            enactGang(round, node, proof, members);
        }
        for (int i = 0; i < proof.pods().size(); i++) {
            PodInfo pod = proof.pods().get(i);
            Move move = proof.landings().get(i);
            if (settings.moveWholeGangs() && pod.gang() != null) {
                continue; // enacted or kept waiting with its gang, above
            }
            if (round.limits().exceeded(pod, node.name()) instanceof LimitCheck.Passed passed) {
                round.skip(new Skip(pod.ref(), node.name(), KIND, SkipCategory.LIMIT,
                        "waits for a later round of the drain: " + passed.text()));
                continue;
            }
            Optional<DisruptionBudget> budget = round.budgets().refusing(pod);
            if (budget.isPresent()) {
                round.skip(new Skip(pod.ref(), node.name(), KIND, SkipCategory.BUDGET,
                        "waits for a later round of the drain: " + round.budgets().describe(budget.get())));
                continue;
            }
            round.record(pod, move);
        }
    }

    /** All of a gang's members in the plan ({@code members}: their indexes), if the limits and budgets allow them together now; else none. */
    private static void enactGang(Round round, NodeInfo node, Proven proof, List<Integer> members) {
        List<PodInfo> pods = members.stream().map(proof.pods()::get).toList();
        Optional<Kept> waits = Optional.empty();
        if (round.limits().exceeded(pods, node.name()) instanceof LimitCheck.Passed passed) {
            waits = Optional.of(new Kept(SkipCategory.LIMIT, passed.text()));
        } else {
            waits = round.budgets().refusing(pods).map(budget -> new Kept(SkipCategory.BUDGET, round.budgets().describe(budget)));
        }
        for (int i : members) {
            PodInfo pod = proof.pods().get(i);
            Move move = proof.landings().get(i);
            if (waits.isEmpty()) {
                round.record(pod, move);
            } else {
                round.skip(new Skip(pod.ref(), move.from(), KIND, waits.get().category(),
                        "its gang moves whole and waits for a later round of the drain: " + waits.get().text()));
            }
        }
    }

    /** The pod's largest share, among the ceiling's resources, of its node's allocatable. */
    private static double share(PodInfo pod, NodeInfo node, Map<String, Integer> ceiling) {
        double most = 0;
        for (String resource : ceiling.keySet()) {
            long allocatable = node.allocatable().get(resource);
            if (allocatable > 0) {
                most = Math.max(most, (double) pod.requests().get(resource) / allocatable);
            }
        }
        return most;
    }

    private static String percents(Map<String, Integer> percents) {
        return String.join(", ", percents.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + " " + e.getValue() + "%").toList());
    }

    /** Whether every pod of a node lands elsewhere. */
    private sealed interface Proof permits Proven, NoLanding {
    }

    /** The pods in the order they land, and their landings (applied to the planned state). */
    private record Proven(List<PodInfo> pods, List<Move> landings) implements Proof {
    }

    /** The first pod that lands nowhere, in words (nothing was applied). */
    private record NoLanding(String text) implements Proof {
    }
}
