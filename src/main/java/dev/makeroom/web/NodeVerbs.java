package dev.makeroom.web;

import dev.makeroom.core.filter.FilterPolicy;
import dev.makeroom.core.filter.FilterVerdict;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.ClusterView;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.score.AvoidList;
import dev.makeroom.core.score.HeldRoomScores;
import dev.makeroom.core.score.ShieldScorePolicy;
import dev.makeroom.queueconfig.Queues;
import dev.makeroom.web.json.AnswerBytes;
import dev.makeroom.web.json.NodeNameJson;
import dev.makeroom.web.json.NodesAnswers;
import dev.makeroom.web.json.NodesArgs;
import dev.makeroom.web.json.VerbBuffers;
import dev.makeroom.web.json.WireJson;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;

/**
 * filter and prioritize: take one snapshot, read the body, ask the core, write the answer. The
 * scheduler calls them for every pod it places, inside its scheduling cycle, so they read and write
 * through the calling thread's {@link VerbBuffers}: the names, the scores and the answer's bytes go where
 * the thread's last call put its own, and an answer is valid until the thread's next call.
 */
@Component
class NodeVerbs {

    private final ClusterView view;
    private final WireJson json;
    private final PodTranslator pods;
    private final FilterPolicy filterPolicy;
    private final ShieldScorePolicy scorePolicy;
    private final Queues queues;
    private final NodeNameJson nodeNames;
    private final AvoidList avoidList;
    private final Clock clock;
    private final FullObjectModeWarning fullObjects = new FullObjectModeWarning();

    NodeVerbs(ClusterView view, WireJson json, PodTranslator pods, FilterPolicy filterPolicy,
              ShieldScorePolicy scorePolicy, Queues queues, NodeNameJson nodeNames, AvoidList avoidList, Clock clock) {
        this.view = view;
        this.json = json;
        this.pods = pods;
        this.filterPolicy = filterPolicy;
        this.scorePolicy = scorePolicy;
        this.queues = queues;
        this.nodeNames = nodeNames;
        this.avoidList = avoidList;
        this.clock = clock;
    }

    AnswerBytes filter(byte[] body) {
        boolean ready = view.ready(); // before the snapshot: a ready view has published its synced one
        return filterAnswer(body, view.snapshot(), ready);
    }

    AnswerBytes prioritize(byte[] body) {
        boolean ready = view.ready();
        return prioritizeAnswer(body, view.snapshot(), ready);
    }

    /** A filter body's answer on {@code snapshot}: what the verb sends, valid until this thread's next call. */
    AnswerBytes filterAnswer(byte[] body, ClusterSnapshot snapshot, boolean ready) {
        VerbBuffers buffers = VerbBuffers.ofThisThread();
        // names are looked up: a known one is then the table's own String, and its answer a copy of its encoding
        NodesArgs args = json.readNodesArgs(body, snapshot.table(), true, buffers);
        fullObjects.check(!args.byName(), snapshot.version());
        PodInfo pod = pods.toCore(args.pod(), snapshot);
        FilterVerdict verdict = ready ? filterPolicy.filter(snapshot, pod, args.names(), queues.usage(snapshot),
                clock.instant())
                : FilterVerdict.allPassed(args.names()); // not synced: the scheduler's own filters decide
        return NodesAnswers.filter(buffers, args, verdict, nodeNames.of(args.nodes().table()));
    }

    /** A prioritize body's answer on {@code snapshot}, valid until this thread's next call. */
    AnswerBytes prioritizeAnswer(byte[] body, ClusterSnapshot snapshot, boolean ready) {
        VerbBuffers buffers = VerbBuffers.ofThisThread();
        NodesArgs args = json.readNodesArgs(body, snapshot.table(), true, buffers);
        PodInfo pod = pods.toCore(args.pod(), snapshot);
        int[] scores = buffers.scores(args.nodes().size());
        if (ready) {
            Instant now = clock.instant(); // one instant for the avoid lists and the held rooms
            // kubelet evictions this replica saw, and the nodes' own avoid lists (the rescheduler's moves)
            AvoidList avoid = avoidList.or(AvoidList.ofNodes(snapshot, now));
            scorePolicy.scoreInto(snapshot, pod, args.nodes(), avoid, scores);
            HeldRoomScores.steer(scores, args.names(), Reservation.heldFor(snapshot, pod, now));
        } else {
            Arrays.fill(scores, 0, args.nodes().size(), 0);
        }
        return NodesAnswers.scores(buffers, args.nodes().against(snapshot.table()), scores,
                nodeNames.of(snapshot.table()));
    }
}
