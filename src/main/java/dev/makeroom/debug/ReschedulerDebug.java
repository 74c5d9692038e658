package dev.makeroom.debug;

import dev.makeroom.core.reschedule.Skip;
import dev.makeroom.rescheduler.Rescheduler;
import dev.makeroom.rescheduler.ReschedulerConfigState;
import dev.makeroom.rescheduler.RoundReport;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import java.util.List;

/** The rescheduler on the debug API: its state and last rounds, and a dry run on demand. */
final class ReschedulerDebug {

    record MoveView(String pod, String from, String to, String policy, String reason, String result, String detail) {
    }

    record SkipView(String pod, String node, String policy, String category, String reason) {
    }

    record RoundView(String at, String mode, String idle, long micros, List<MoveView> moves, List<SkipView> skipped) {
    }

    record ConfigView(String source, String loadedAt, String rejected, String rejectedAt) {
    }

    record State(boolean enabled, String mode, boolean leading, String leader, ConfigView config, List<RoundView> rounds) {
    }

    private final Rescheduler rescheduler;

    ReschedulerDebug(Rescheduler rescheduler) {
        this.rescheduler = rescheduler;
    }

    /**
     * GET /debug/rescheduler — on or off, the mode, whether this replica leads and which one does, the
     * document in force, the last rounds.
     */
    ServerResponse state(ServerRequest request) {
        ReschedulerConfigState config = rescheduler.configState();
        return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).body(new State(rescheduler.running(),
                DebugDtos.spelled(rescheduler.mode()), rescheduler.leading(), rescheduler.leader(),
                new ConfigView(config.source(), config.loadedAt().toString(), config.rejected(),
                        config.rejectedAt() == null ? null : config.rejectedAt().toString()),
                rescheduler.rounds().stream().map(ReschedulerDebug::view).toList()));
    }

    /** POST /debug/rescheduler/plan — what a round would do now, changing nothing. */
    ServerResponse plan(ServerRequest request) {
        return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).body(view(rescheduler.planNow()));
    }

    private static RoundView view(RoundReport round) {
        return new RoundView(round.at().toString(), DebugDtos.spelled(round.mode()), round.idle(), round.nanos() / 1000,
                round.moves().stream().map(m -> new MoveView(m.move().pod().toString(), m.move().from(), m.move().to(),
                        DebugDtos.spelled(m.move().policy()), m.move().reason(), m.result(), m.detail())).toList(),
                round.skipped().stream().map(ReschedulerDebug::view).toList());
    }

    private static SkipView view(Skip skip) {
        return new SkipView(skip.pod().toString(), skip.node(), DebugDtos.spelled(skip.policy()), skip.category(),
                skip.reason());
    }
}
