package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.Gang;
import dev.makeroom.core.model.PodInfo;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A gang that a set of victims breaks: of its {@code running} members, {@code evicted} are victims and
 * fewer than its minimum would keep running, so the other {@link #othersStopped} stop too when its
 * framework restarts the group. The scheduler evicts only the victims makeroom names; the others are
 * lost, not evicted by makeroom. {@code gang} carries the gang's minimum: the smallest any running
 * member states, else every member ({@link Gang#EVERY_MEMBER}).
 */
public record GangLoss(Gang gang, int running, int evicted) {

    /** The running members that are not victims and stop with the gang. */
    public int othersStopped() {
        return running - evicted;
    }

    /** The gangs {@code victims} break on {@code snapshot}, in the order their first victim is named. */
    public static List<GangLoss> of(ClusterSnapshot snapshot, List<PodInfo> victims) {
        Map<String, Gang> gangs = new LinkedHashMap<>();
        Set<String> victimUids = new HashSet<>();
        for (PodInfo victim : victims) {
            if (victim.gang() != null) {
                gangs.putIfAbsent(victim.gang().key(), victim.gang());
                victimUids.add(victim.uid());
            }
        }
        List<GangLoss> broken = new ArrayList<>();
        gangs.forEach((key, named) -> {
            List<PodInfo> running = snapshot.runningMembersOf(key);
            int evicted = (int) running.stream().filter(member -> victimUids.contains(member.uid())).count();
            Gang gang = snapshot.gangAsKnown(named, running); // the victims are among them: their minimums count
            if (gang.brokenBy(running.size(), evicted)) {
                broken.add(new GangLoss(gang, running.size(), evicted));
            }
        });
        return broken;
    }

    /** The pods lost beyond the victims, over all {@code losses}. */
    public static int othersStopped(List<GangLoss> losses) {
        return losses.stream().mapToInt(GangLoss::othersStopped).sum();
    }

    /** "gang ml/train (coscheduling): 1 of 4 running evicted, fewer than all left, the other 3 stop too". */
    public String describe() {
        return "gang " + gang.namespace() + "/" + gang.name() + " (" + gang.system() + "): " + evicted + " of "
                + running + " running evicted, fewer than "
                + (gang.minMember() == Gang.EVERY_MEMBER ? "all" : String.valueOf(gang.minMember()))
                + " left, the other " + othersStopped() + " stop too";
    }
}
