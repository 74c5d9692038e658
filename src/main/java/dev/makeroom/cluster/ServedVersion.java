package dev.makeroom.cluster;

import dev.makeroom.core.model.KubeVersion;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.VersionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * The Kubernetes version whose scheduler makeroom answers: as configured, or read from the API
 * server's {@code /version} (readable by every client). Until it is read the newest tested version's
 * rules apply; a failed read is tried again at most every {@link #RETRY_NANOS}, from the view's own
 * thread, so an API server that is down at start costs nothing but the wait.
 */
final class ServedVersion {

    private static final Logger log = LoggerFactory.getLogger(ServedVersion.class);
    static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final KubernetesClient client;
    private KubeVersion known;
    private long lastTryNanos;
    private boolean tried;

    ServedVersion(KubernetesClient client, KubeVersion configured) {
        this.client = client;
        this.known = configured;
        if (configured != null) {
            log.info("answering as for kube-scheduler {} (makeroom.cluster.kubernetes-version)", configured);
        }
    }

    /** The version once known (null before), reading it when a try is due at {@code nowNanos}. */
    KubeVersion resolve(long nowNanos) {
        if (known != null || (tried && nowNanos - lastTryNanos < RETRY_NANOS)) {
            return known;
        }
        tried = true;
        lastTryNanos = nowNanos;
        try {
            VersionInfo info = client.getKubernetesVersion();
            known = KubeVersion.of(info.getMajor(), info.getMinor());
            log.info("the API server is Kubernetes {}: answering with kube-scheduler {}'s rules", info.getGitVersion(),
                    known);
            if (known.compareTo(KubeVersion.NEWEST_TESTED) > 0 || known.compareTo(KubeVersion.OLDEST_TESTED) < 0) {
                log.warn("Kubernetes {} is outside the versions makeroom was tested against ({} to {})", known,
                        KubeVersion.OLDEST_TESTED, KubeVersion.NEWEST_TESTED);
            }
        } catch (RuntimeException e) {
            log.warn("cannot read the API server's version yet ({}); using {}'s rules until it can be read",
                    e.getMessage(), KubeVersion.NEWEST_TESTED);
        }
        return known;
    }
}
