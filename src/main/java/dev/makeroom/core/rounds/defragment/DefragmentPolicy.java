package dev.makeroom.core.rounds.defragment;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.room.Deadline;
import dev.makeroom.core.rounds.PolicySection;
import dev.makeroom.core.rounds.PreemptionCheck;
import dev.makeroom.core.rounds.ReschedulePolicy;
import dev.makeroom.core.rounds.Round;
import dev.makeroom.core.rounds.RoundPolicy;
import dev.makeroom.core.rounds.Skip;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The defragment policy: a pod unschedulable for a while, which preemption does not place, gets a node
 * freed for it by moving the fewest pods of no higher priority off it, each to a node that takes them
 * all at once ({@link RoomByMoving}); the node is then held for it. The pods waiting longest come
 * first, highest priority first ({@link DefragmentCandidates}); each plan's moves are applied before the
 * next pod's search. It runs first: a pod that runs nowhere waits on it.
 */
public final class DefragmentPolicy implements RoundPolicy<DefragmentSettings> {

    /**
     * Its name in moves and skips; it moves a pod off a node, to make room there for a pending pod that fits
     * nowhere; each moved pod lands elsewhere.
     */
    public static final ReschedulePolicy KIND = new ReschedulePolicy("DEFRAGMENT");

    @Override
    public ReschedulePolicy kind() {
        return KIND;
    }

    @Override
    public String section() {
        return "defragment";
    }

    @Override
    public Set<String> keys() {
        return Set.of("enabled", "after", "schedulerNames", "reserveFor", "maxMoves", "searchBudget");
    }

    @Override
    public Class<DefragmentSettings> settingsType() {
        return DefragmentSettings.class;
    }

    /**
     * On unless turned off (the one place its defaults are written): pods of the default scheduler
     * pending 30 s, at most 3 moves (1..8: the search is exact over sets of this size), the node held
     * 2 min, a search of at most 1 s.
     */
    @Override
    public DefragmentSettings read(PolicySection section) {
        int maxMoves = section.count("maxMoves", 3);
        if (maxMoves < 1 || maxMoves > 8) {
            throw section.invalid("maxMoves", "must be 1..8 (the search is exact over sets of this size)");
        }
        Object names = section.value("schedulerNames", List.of(PodInfo.DEFAULT_SCHEDULER));
        if (!(names instanceof List<?> list) || list.isEmpty()
                || !list.stream().allMatch(n -> n instanceof String s && !s.isBlank())) {
            throw section.invalid("schedulerNames", "must be a list of scheduler names");
        }
        return new DefragmentSettings(section.bool("enabled", true), section.duration("after", Duration.ofSeconds(30)),
                list.stream().map(String.class::cast).collect(Collectors.toSet()),
                section.positiveDuration("reserveFor", Duration.ofMinutes(2)), maxMoves,
                section.positiveDuration("searchBudget", Duration.ofSeconds(1)));
    }

    @Override
    public void plan(Round round) {
        makeRoom(round, DefragmentCandidates.waiting(round.snapshot(), round.settings(DefragmentSettings.class), round.now()));
    }

    /** Room for each of {@code waiting}, in that order, however long it has waited. */
    public static void makeRoom(Round round, List<PodInfo> waiting) {
        DefragmentSettings settings = round.settings(DefragmentSettings.class);
        RoomByMoving search = new RoomByMoving(round.planned(), round.nodes(), round.settings(), round.limits(), round.budgets(),
                round.moved(), round.heldBack(), round::neverMoved, round.preemption().workPrice().at(round.now()));
        PreemptionCheck preemptionOnce = round.preemption().oncePerShape();
        for (PodInfo pending : waiting) {
            Optional<Skip> leftAlone = DefragmentCandidates.leftAlone(round.snapshot(), pending, preemptionOnce,
                    round.limits(), round.now());
            if (leftAlone.isPresent()) {
                round.skip(leftAlone.get());
                continue;
            }
            RoomByMoving.Outcome outcome = search.find(pending,
                    Deadline.after(round.nanos(), settings.searchBudget().toNanos()), round.now().plus(settings.reserveFor()));
            if (outcome instanceof RoomByMoving.Planned planned) {
                round.room(planned.plan());
            } else if (outcome instanceof RoomByMoving.Unplanned none) {
                round.skip(new Skip(pending.ref(), null, KIND, none.why().category(), none.text()));
            }
        }
    }
}
