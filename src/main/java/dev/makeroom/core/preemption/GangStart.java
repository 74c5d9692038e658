package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.Gang;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.placement.PlacementSurvey;
import dev.makeroom.core.placement.PodPlacement;
import dev.makeroom.core.placement.SnapshotState;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.QueueRules;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * All or nothing for a pending member of a gang (docs/gangs.md): victims are named for one member
 * only when every member its gang needs to start can be placed, else none are.
 *
 * <p>A member whose gang's PodGroup makeroom watches for and has not seen gets no victims: how many
 * must start is not known (the coscheduling plugin, too, schedules no member of a missing PodGroup).
 * The members needed: with a minimum, as many as its running members fall short of it; without
 * one, every pending member. The member asked about goes where the decision put it, its victims gone;
 * a member nominated to a node already has its room there (the scheduler's nomination holds it, and
 * its victims are going); then each other pending member in turn (by name) goes to the first node, by name, it fits on as the
 * cluster then stands, or, where it fits nowhere, where preemption over the nodes that could make room
 * for it decides, its victims gone. A greedy placement: it can miss a packing that exists, and never
 * claims one that does not. The scheduler evicts only the asked member's victims; the others'
 * preemptions come when the scheduler asks for them, and meanwhile the room found for each may be held
 * for it ({@link Room}, written by {@link GangRooms}).
 */
public final class GangStart {

    /** A gang that cannot start: {@code needed} members must start together, room was found for {@code placed}. */
    public record Shortfall(Gang gang, int needed, int placed, String why) {

        public String describe() {
            return "no room for its whole gang " + gang.namespace() + "/" + gang.name() + ": " + needed
                    + " members must start together and room was found for " + placed + " (" + why + ")";
        }
    }

    /** The node found for another waiting member of the gang, where its room may be held until it binds. */
    public record Room(PodInfo member, String node) {
    }

    /** The decision as it stands (victims only when the gang can start), and the rooms found for the other members. */
    public record Checked(PreemptionDecision decision, List<Room> rooms) {
    }

    /** Whether the gang starts (the rooms for its other members), or why not. */
    private sealed interface Plan permits Starts, Short, GroupUnseen {
    }

    private record Starts(List<Room> rooms) implements Plan {
    }

    private record Short(Shortfall shortfall) implements Plan {
    }

    /** The gang's PodGroup, whose kind makeroom watches, is not known (not created yet, or not seen yet). */
    private record GroupUnseen(Gang gang) implements Plan {

        String describe() {
            return "no PodGroup known for its gang " + gang.namespace() + "/" + gang.name() + " (" + gang.system()
                    + "): how many members must start together is not known yet";
        }
    }

    private GangStart() {
    }

    /**
     * {@code decision} as it stands, or no preemption when the pod's gang cannot start with it; with the
     * rooms found for the gang's other waiting members when it starts.
     */
    public static Checked check(PreemptionEngine engine, ClusterSnapshot snapshot, PodInfo pending,
                                PreemptionDecision decision, QueueRules rules, Instant now) {
        if (decision.outcome() != DecisionOutcome.PREEMPT || pending.gang() == null) {
            return new Checked(decision, List.of());
        }
        Plan plan = plan(engine, snapshot, pending, decision.chosen().get(0), rules, now);
        if (plan instanceof Short s) {
            return noVictims(decision, s.shortfall().describe());
        }
        if (plan instanceof GroupUnseen unseen) {
            return noVictims(decision, unseen.describe());
        }
        return new Checked(decision, ((Starts) plan).rooms());
    }

    private static Checked noVictims(PreemptionDecision decision, String why) {
        return new Checked(new PreemptionDecision(decision.pod(), DecisionOutcome.NO_FEASIBLE_NODE, why,
                decision.strategy(), decision.verdicts(), List.of(), decision.nanos(), decision.schedulers(), 0), List.of());
    }

    /** Where the gang's members needed go once {@code chosen}'s victims are gone, or why they cannot all. */
    private static Plan plan(PreemptionEngine engine, ClusterSnapshot snapshot, PodInfo pending,
                             NodeVerdict chosen, QueueRules rules, Instant now) {
        if (snapshot.gangGroupMissing(pending.gang())) {
            return new GroupUnseen(pending.gang());
        }
        String key = pending.gang().key();
        List<PodInfo> running = snapshot.runningMembersOf(key);
        List<PodInfo> waiting = new ArrayList<>();
        for (PodInfo member : snapshot.podsInGangs()) {
            if (member.gang().key().equals(key) && !member.isAssigned() && !member.terminating()
                    && !member.uid().equals(pending.uid())) {
                waiting.add(member);
            }
        }
        List<PodInfo> members = new ArrayList<>(running);
        members.addAll(waiting);
        members.add(pending);
        Gang gang = snapshot.gangAsKnown(pending.gang(), members);
        int minimum = gang.minMember();
        int needed = minimum == Gang.EVERY_MEMBER ? waiting.size() + 1 : Math.max(1, minimum - running.size());
        if (needed <= 1) {
            return new Starts(List.of());
        }
        if (waiting.size() + 1 < needed) {
            return new Short(new Shortfall(gang, needed, 0, (waiting.size() + 1) + " of its members wait to start"));
        }
        List<Room> rooms = new ArrayList<>();
        waiting.sort(Comparator.comparing(PodInfo::name));
        ClusterSnapshot planned = placed(snapshot, pending, chosen.node(), chosen.victims().victims());
        int placed = 1;
        waiting.sort(Comparator.comparing((PodInfo p) -> nominated(snapshot, p) ? 0 : 1)); // stable: by name within
        for (PodInfo member : waiting) {
            if (placed == needed) {
                break;
            }
            if (nominated(snapshot, member)) { // counted where it is nominated, by every pod of no higher priority
                placed++;
                continue;
            }
            PlacementSurvey where = PlacementSurvey.of(PodPlacement.of(new SnapshotState(planned, now), member));
            if (!where.fits().isEmpty()) {
                String node = where.fits().stream().sorted().findFirst().orElseThrow();
                planned = placed(planned, member, node, List.of());
                rooms.add(new Room(member, node));
            } else if (!where.preemptionCandidates().isEmpty()) {
                PreemptionDecision room = engine.decide(planned, member,
                        Candidate.onNodes(where.preemptionCandidates()), rules);
                if (room.outcome() != DecisionOutcome.PREEMPT) {
                    return new Short(new Shortfall(gang, needed, placed, member.ref() + ": " + room.detail()));
                }
                NodeVerdict there = room.chosen().get(0);
                planned = placed(planned, member, there.node(), there.victims().victims());
                rooms.add(new Room(member, there.node()));
            } else {
                return new Short(new Shortfall(gang, needed, placed, member.ref() + " fits on no node"));
            }
            placed++;
        }
        return new Starts(rooms);
    }

    private static boolean nominated(ClusterSnapshot snapshot, PodInfo member) {
        return member.nominatedNodeName() != null && snapshot.node(member.nominatedNodeName()) != null;
    }

    /** {@code snapshot} with {@code victims} gone and {@code pod} bound to {@code node}. */
    private static ClusterSnapshot placed(ClusterSnapshot snapshot, PodInfo pod, String node, List<PodInfo> victims) {
        Set<String> gone = new HashSet<>();
        victims.forEach(v -> gone.add(v.uid()));
        NodeInfo before = snapshot.node(node);
        List<PodInfo> bound = new ArrayList<>();
        for (PodInfo p : before.pods()) {
            if (!gone.contains(p.uid())) {
                bound.add(p);
            }
        }
        PodInfo landed = pod.toBuilder().nodeName(node).nominatedNodeName(null).build();
        bound.add(landed);
        ClusterSnapshot.Change change = snapshot.change().putPod(landed)
                .putNode(before.withPods(bound, before.nominatedPods().stream()
                        .filter(p -> !p.uid().equals(pod.uid())).toList()));
        gone.forEach(change::removePod);
        return change.build();
    }
}
