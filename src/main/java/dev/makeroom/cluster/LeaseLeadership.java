package dev.makeroom.cluster;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Which replica acts: leader election over a coordination.k8s.io Lease in makeroom's namespace. Every
 * replica keeps serving the extender; only the leader's rescheduler evicts. Losing the lease stops the
 * acting at once; the elector then tries again.
 */
public final class LeaseLeadership implements Leadership, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LeaseLeadership.class);

    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "makeroom-leader-election");
        t.setDaemon(true);
        return t;
    });
    private final LeaderElector elector;
    private volatile boolean leading;
    private volatile String leader;
    private volatile CompletableFuture<?> running;

    public LeaseLeadership(KubernetesClient client, String namespace, String lease, String identity) {
        this.elector = client.leaderElector().withConfig(new LeaderElectionConfigBuilder()
                .withName("makeroom-rescheduler")
                .withLock(new LeaseLock(namespace, lease, identity))
                .withLeaseDuration(Duration.ofSeconds(15))
                .withRenewDeadline(Duration.ofSeconds(10))
                .withRetryPeriod(Duration.ofSeconds(2))
                .withReleaseOnCancel()
                .withLeaderCallbacks(new LeaderCallbacks(
                        () -> {
                            leading = true;
                            log.info("rescheduler: this replica ({}) leads", identity);
                        },
                        () -> {
                            leading = false;
                            log.info("rescheduler: this replica ({}) no longer leads", identity);
                        },
                        newLeader -> leader = newLeader))
                .build()).build();
    }

    /** Starts campaigning, and again whenever a term ends. */
    public LeaseLeadership start() {
        CompletableFuture<?> term = elector.start(); // cancelling this one (not a stage after it) ends the term
        running = term;
        term.whenComplete((done, error) -> {
            leading = false;
            if (!executor.isShutdown()) {
                executor.schedule(this::start, 2, TimeUnit.SECONDS); // a new term, after a pause
            }
        });
        return this;
    }

    /** Whether this replica holds the lease now. */
    @Override
    public boolean leading() {
        return leading;
    }

    @Override
    public String leader() {
        return leader;
    }

    @Override
    public void close() {
        executor.shutdownNow();
        CompletableFuture<?> term = running;
        if (term != null) {
            term.cancel(true);
        }
    }
}
