package dev.makeroom.debug;

import dev.makeroom.core.rounds.RescheduleSettings;
import dev.makeroom.core.rounds.ReschedulePlan;
import dev.makeroom.core.rounds.Skip;
import dev.makeroom.rescheduler.ActingGate;
import dev.makeroom.rescheduler.InvalidReschedulerConfigException;
import dev.makeroom.rescheduler.Rescheduler;
import dev.makeroom.rescheduler.ReschedulerConfigParser;
import dev.makeroom.rescheduler.ReschedulerConfigState;
import dev.makeroom.rescheduler.RoundReport;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** The rescheduler on the debug API: its state and last rounds, and a dry run on demand. */
final class ReschedulerDebug {

    record MoveView(String pod, String from, String to, String policy, String reason, String result, String detail) {
    }

    record SkipView(String pod, String node, String policy, String category, String reason) {
    }

    record RoomView(String pending, String node, List<String> moved, String reservedUntil, boolean proven,
                    String result, String detail) {
    }

    /** A node the consolidate policy drains or tried: {@code landings} is the whole proven plan for its pods. */
    record DrainView(String node, String step, String reason, List<String> landings, String result, String detail) {
    }

    /** A moved pod's landing that closed: the node its move was proven on, where its replacement bound (null: none in time). */
    record LandingView(String moved, String planned, String landed, String result) {
    }

    /**
     * A round: {@code idle} says why it did not plan at all (null when it planned); {@code policies} the
     * ones it ran, in their order; {@code nothingMoved} why it moved nothing (null when it moved a pod).
     */
    record RoundView(String at, String mode, String idle, List<String> policies, String nothingMoved, long micros,
                     List<RoomView> rooms, List<DrainView> drains, List<MoveView> moves, List<SkipView> skipped,
                     List<LandingView> landings) {
    }

    record Problem(String error) {
    }

    record ConfigView(String source, String loadedAt, String rejected, String rejectedAt) {
    }

    /** {@code acting}: whether this replica may act now; {@code notActing}: why not (null when it may). */
    record State(boolean enabled, String mode, boolean leading, String leader, boolean acting, String notActing,
                 ConfigView config, List<RoundView> rounds) {
    }

    private final Rescheduler rescheduler;

    ReschedulerDebug(Rescheduler rescheduler) {
        this.rescheduler = rescheduler;
    }

    /**
     * GET /debug/rescheduler — on or off, the mode, whether this replica leads and which one does,
     * whether it may act now and why not, the document in force, the last rounds.
     */
    ServerResponse state(ServerRequest request) {
        ReschedulerConfigState config = rescheduler.configState();
        String notActing = rescheduler.notActing().map(ActingGate.Shut::why).orElse(null);
        return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).body(new State(rescheduler.running(),
                DebugDtos.spelled(rescheduler.mode()), rescheduler.leading(), rescheduler.leader(), notActing == null,
                notActing,
                new ConfigView(config.source(), config.loadedAt().toString(), config.rejected(),
                        config.rejectedAt() == null ? null : config.rejectedAt().toString()),
                rescheduler.rounds().stream().map(ReschedulerDebug::view).toList()));
    }

    /**
     * POST /debug/rescheduler/plan — what a round would do now, changing nothing. Without a body, under
     * the policies in force; with a policies document as the body, in YAML or JSON (JSON is YAML; the
     * Content-Type says which: {@code application/yaml}, {@code application/x-yaml} or
     * {@code application/json}, or none, read as YAML), what it would do under that document instead: a
     * body of any other type is refused, never ignored. With {@code ?pod=namespace/name} (and no body), what defragmentation
     * would do for that pending pod, however long it has waited.
     */
    ServerResponse plan(ServerRequest request) throws Exception {
        // read as bytes, before any parameter (Tomcat would read a form body as parameters), whatever the
        // Content-Type says: one that does not parse is refused below as a 415, not thrown as a 500
        String body = new String(request.servletRequest().getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String pod = request.param("pod").orElse(null);
        boolean document = body != null && !body.isBlank();
        if (document && pod != null) {
            return problem(400, "?pod= plans under the policies in force: send no body with it");
        }
        if (document) {
            if (!isDocument(request)) {
                return problem(415, "send the policies document as application/yaml or application/json");
            }
            RescheduleSettings tried;
            try {
                tried = ReschedulerConfigParser.parse(body);
            } catch (InvalidReschedulerConfigException e) {
                return problem(400, "invalid policies document: " + e.getMessage());
            }
            return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).body(view(rescheduler.planNowWith(tried)));
        }
        if (pod == null) {
            return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).body(view(rescheduler.planNow()));
        }
        int slash = pod.indexOf('/');
        if (slash <= 0 || slash == pod.length() - 1) {
            return problem(400, "pod must be namespace/name, got " + pod);
        }
        RoundReport report = rescheduler.planFor(pod.substring(0, slash), pod.substring(slash + 1));
        if (report == null) {
            return problem(404, "no pending pod " + pod + " in makeroom's view");
        }
        return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).body(view(report));
    }

    private static ServerResponse problem(int status, String why) {
        return ServerResponse.status(status).contentType(MediaType.APPLICATION_JSON).body(new Problem(why));
    }

    /**
     * A policies document's Content-Type: YAML under either name, or JSON (a subset of YAML), or none
     * (read as YAML: {@code kubectl create --raw}, the kubectl plugin's way, sends none).
     */
    private static boolean isDocument(ServerRequest request) {
        try {
            return request.headers().contentType().map(type -> type.getSubtype().equals("yaml")
                    || type.getSubtype().equals("x-yaml") || type.isCompatibleWith(MediaType.APPLICATION_JSON))
                    .orElse(true);
        } catch (InvalidMediaTypeException e) {
            return false;
        }
    }

    private static RoundView view(RoundReport round) {
        return new RoundView(round.at().toString(), DebugDtos.spelled(round.mode()), round.idle(),
                round.ran().stream().map(DebugDtos::spelled).toList(),
                round.nothingMoved().map(ReschedulePlan.NothingMoved::reason).orElse(null), round.nanos() / 1000,
                round.rooms().stream().map(r -> new RoomView(r.room().pending().toString(), r.room().node(),
                        r.room().moves().stream().map(m -> m.pod() + " to " + m.to()).toList(),
                        r.room().reserveUntil().toString(), r.room().proven(), r.result().name(), r.detail())).toList(),
                round.drains().stream().map(d -> new DrainView(d.drain().node(), d.drain().step().name(), d.drain().reason(),
                        d.drain().landings().stream().map(m -> m.pod() + " to " + m.to()).toList(), d.result().name(),
                        d.detail())).toList(),
                round.moves().stream().map(m -> new MoveView(m.move().pod().toString(), m.move().from(), m.move().to(),
                        DebugDtos.spelled(m.move().policy()), m.move().reason(), m.result().name(), m.detail())).toList(),
                round.skipped().stream().map(ReschedulerDebug::view).toList(),
                round.landings().stream().map(l -> new LandingView(l.moved().toString(), l.planned(), l.landed(),
                        l.result().name())).toList());
    }

    private static SkipView view(Skip skip) {
        return new SkipView(skip.pod().toString(), skip.node(), DebugDtos.spelled(skip.policy()), skip.category().name(),
                skip.reason());
    }
}
