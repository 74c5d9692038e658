package dev.makeroom.config;

import dev.makeroom.core.model.KubeVersion;
import dev.makeroom.core.preemption.AnswerMode;
import dev.makeroom.core.room.PdbMode;
import dev.makeroom.core.room.WorkPrice;
import dev.makeroom.core.preemption.PreemptionObjective;
import dev.makeroom.core.room.Strategy;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.PositiveOrZero;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import org.springframework.util.unit.DataSize;

import java.time.Duration;
import java.util.Map;

/**
 * Everything under {@code makeroom.*}. Enum values accept the lower-case, dashed spelling
 * ({@code kube-default}). Strict: an unknown {@code makeroom.*} key or a value that makes no sense
 * (a budget of 0, a resync under a second) stops the start, naming the key.
 */
@ConfigurationProperties(prefix = "makeroom", ignoreUnknownFields = false)
@Validated
public record MakeroomProperties(@Valid @DefaultValue Cluster cluster,
                                 @Valid @DefaultValue Preemption preemption,
                                 @Valid @DefaultValue Web web,
                                 @Valid @DefaultValue Debug debug,
                                 @Valid @DefaultValue Queues queues,
                                 @Valid @DefaultValue Rescheduler rescheduler,
                                 @Valid @DefaultValue Events events) {

    /**
     * Events on preemptors (README, Explanations): one per preemption decision, the same message for a
     * pod at most once per {@code quiet-for}, at most {@code per-second} in all; only against the API.
     */
    public record Events(@DefaultValue("true") boolean enabled,
                         @NotNull @DurationMin(seconds = 1) @DefaultValue("10m") Duration quietFor,
                         @jakarta.validation.constraints.Positive @DefaultValue("10") int perSecond) {
    }

    /**
     * The rescheduler (README, Rescheduler): off unless {@code enabled}; {@code dry-run} plans and
     * reports, {@code evict} also evicts. Its policies come from {@code file} or {@code config}, or,
     * in cluster mode, the ConfigMap {@code config-map-name}, key {@code rescheduler.yaml}, while it
     * exists. {@code lease} names the Lease the replicas elect the acting one with; {@code avoid-for}
     * how long a node's avoid list keeps a moved pod's controller; {@code landing-for} how long the
     * extender steers a moved pod's replacement to the node makeroom proved it fits on.
     */
    public record Rescheduler(@DefaultValue("false") boolean enabled,
                              @NotNull @DefaultValue("dry-run") dev.makeroom.rescheduler.ReschedulerMode mode,
                              @NotNull @DurationMin(millis = 100) @DefaultValue("1m") Duration interval,
                              String file,
                              String config,
                              @NotNull @DefaultValue("makeroom-rescheduler") String configMapName,
                              @NotNull @DefaultValue("makeroom-rescheduler") String lease,
                              @NotNull @DefaultValue("1h") Duration avoidFor,
                              @NotNull @DurationMin(seconds = 1) @DefaultValue("2m") Duration landingFor) {
    }

    /**
     * The queue configuration (README, Queues) from a file or inline; in cluster mode the ConfigMap
     * {@code cluster.config-map-name}, key {@code queues.yaml}, takes precedence while it exists.
     */
    public record Queues(String file, String config) {
    }

    /**
     * The debug API: how many recent preemption decisions it keeps, and whether callers must show a
     * bearer token the API server accepts and authorizes for the URL ({@code auth}; off for local runs,
     * on in the chart).
     */
    public record Debug(@jakarta.validation.constraints.Positive @DefaultValue("200") int decisions,
                        @DefaultValue("false") boolean auth,
                        @Valid @DefaultValue Aggregation aggregation) {
    }

    /**
     * The debug API as the API server's aggregated API {@code debug.makeroom.dev/v1} (docs/kubectl-plugin.md):
     * an HTTPS port ({@code port}, 0 for none) on the management server, with this serving certificate
     * and key (PEM files), that answers only the API server's front proxy.
     */
    public record Aggregation(@jakarta.validation.constraints.PositiveOrZero @DefaultValue("0") int port,
                              String certificateFile, String keyFile) {

        @AssertTrue(message = "an aggregation port needs certificate-file and key-file")
        public boolean isServable() {
            return port == 0 || certificateFile != null && !certificateFile.isBlank() && keyFile != null && !keyFile.isBlank();
        }
    }

    /**
     * Where the cluster view comes from. Without {@code source}, makeroom watches the API when it
     * runs inside a cluster and reads {@code snapshot} otherwise. {@code resync} is off (0) by
     * default: the view is built from watch events, and a resync only replays what it holds.
     */
    public record Cluster(Source source,
                          String snapshot,
                          @NotNull @DefaultValue("0s") Duration resync,
                          String configMapNamespace,
                          @NotNull @DefaultValue("makeroom-queues") String configMapName,
                          @NotNull @DurationMin(seconds = 1) @DefaultValue("10m") Duration evictionMemory,
                          String kubernetesVersion) {

        /** A resync replays the whole view: more often than once a second is a mistake. */
        @AssertTrue(message = "must be 0s (off) or at least 1s")
        public boolean isResync() {
            return resync == null || resync.isZero() || resync.compareTo(Duration.ofSeconds(1)) >= 0;
        }

        /** A version such as {@code 1.36} (or {@code v1.36.3}), when given. */
        @AssertTrue(message = "must be a Kubernetes version such as 1.36 or v1.36.3")
        public boolean isKubernetesVersion() {
            try {
                servedVersion();
                return true;
            } catch (IllegalArgumentException e) {
                return false;
            }
        }

        /**
         * The Kubernetes version whose scheduler makeroom answers, when set; null: the live view reads it
         * from the API server, and a snapshot file is answered as for {@link KubeVersion#NEWEST_TESTED}.
         */
        public KubeVersion servedVersion() {
            return kubernetesVersion == null || kubernetesVersion.isBlank() ? null : KubeVersion.parse(kubernetesVersion);
        }

        public Source effectiveSource(boolean insideCluster) {
            return source != null ? source : insideCluster ? Source.KUBERNETES : Source.SNAPSHOT;
        }
    }

    public enum Source {
        /** A file of Kubernetes objects ({@code makeroom.cluster.snapshot}). */
        SNAPSHOT,
        /** The Kubernetes API, through informers (in-cluster service account, else kubeconfig). */
        KUBERNETES
    }

    /**
     * How preempt decides; {@code gangHold}: how long the room found for a gang's other waiting members
     * is held on their nodes once victims are named for one member (0: not held; holding writes the
     * nodes' reservation annotation, so makeroom needs to patch nodes). {@code objective}: what is
     * minimised after budgets and priorities, {@code work-lost} weighing victims by {@code workWeights}
     * (resource to weight a unit; empty: cpu 1 a core, any resource ending in gpu 50 a unit) times the
     * seconds since their start or checkpoint, at most {@code workHorizon}.
     */
    public record Preemption(@NotNull @DefaultValue("minimal") Strategy strategy,
                             @NotNull @DefaultValue("best") AnswerMode answer,
                             @NotNull @DefaultValue("prefer") PdbMode pdb,
                             @NotNull @DurationMin(nanos = 1) @DefaultValue("50ms") Duration budget,
                             @NotNull @DurationMin(nanos = 0) @DefaultValue("0s") Duration gangHold,
                             @NotNull @DefaultValue("kubernetes") PreemptionObjective objective,
                             @NotNull @DefaultValue Map<String, @NotNull @PositiveOrZero Double> workWeights,
                             @NotNull @DurationMin(seconds = 1) @DefaultValue("24h") Duration workHorizon) {

        /** The price of what victims lose, as configured (shown under either objective). */
        public WorkPrice workPrice() {
            return WorkPrice.of(workWeights, workHorizon);
        }
    }

    /**
     * The extender endpoints: their path prefix ({@code /scheduler} for {@code POST /scheduler/filter}),
     * the largest request body accepted (larger ones get 413), and the size of each connection's
     * socket read and write buffers in Tomcat (its default is 8 KB: a filter answer naming 5,000
     * nodes, about 100 KB, then left in a dozen writes, each waking the scheduler's reader), and how
     * long the verbs' decision paths are run on the first synced snapshot before readiness (0: not);
     * {@code exit-after-warmup} ends the process after that, for the training run of an
     * ahead-of-time cache (the Dockerfile's).
     */
    public record Web(@NotNull @Pattern(regexp = "(/[A-Za-z0-9._~-]+)*", message = "must be empty or a path like /scheduler")
                      @DefaultValue("/scheduler") String prefix,
                      @NotNull @DefaultValue("64MB") DataSize maxRequestSize,
                      @NotNull @DefaultValue("128KB") DataSize socketBuffer,
                      @NotNull @DurationMin(nanos = 0) @DefaultValue("5s") Duration warmup,
                      @DefaultValue("false") boolean exitAfterWarmup) {

        @AssertTrue(message = "needs makeroom.web.warmup above 0s: a training run with no warm-up would train nothing")
        public boolean isExitAfterWarmup() {
            return !exitAfterWarmup || warmup == null || !warmup.isZero();
        }
    }
}
