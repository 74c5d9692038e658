package dev.makeroom.cluster;

import dev.makeroom.core.model.KubeVersion;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.VersionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * The Kubernetes version whose scheduler makeroom answers: as configured, or read from the API
 * server's {@code /version} (readable by every client). The read runs on a thread of its own, so a
 * slow or failing API server never holds up the view's events; a failed read is tried again every
 * {@link #RETRY}. Until it succeeds the newest tested version's rules apply.
 */
final class ServedVersion implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ServedVersion.class);
    static final Duration RETRY = Duration.ofSeconds(10);

    private final KubernetesClient client;
    private volatile KubeVersion known;
    private Thread reader;

    ServedVersion(KubernetesClient client, KubeVersion configured) {
        this.client = client;
        this.known = configured;
        if (configured != null) {
            log.info("answering as for kube-scheduler {} (makeroom.cluster.kubernetes-version)", configured);
        }
    }

    /** Starts reading the API server's version, unless one was configured. */
    ServedVersion start() {
        if (known == null) {
            reader = new Thread(this::readUntilKnown, "makeroom-served-version");
            reader.setDaemon(true);
            reader.start();
        }
        return this;
    }

    /** The version once known; null before. */
    KubeVersion known() {
        return known;
    }

    private void readUntilKnown() {
        boolean warned = false;
        while (known == null && !Thread.currentThread().isInterrupted()) {
            try {
                VersionInfo info = client.getKubernetesVersion();
                KubeVersion read = KubeVersion.of(info.getMajor(), info.getMinor());
                log.info("the API server is Kubernetes {}: answering with kube-scheduler {}'s rules",
                        info.getGitVersion(), read);
                if (read.compareTo(KubeVersion.NEWEST_TESTED) > 0 || read.compareTo(KubeVersion.OLDEST_TESTED) < 0) {
                    log.warn("Kubernetes {} is outside the versions makeroom was tested against ({} to {})", read,
                            KubeVersion.OLDEST_TESTED, KubeVersion.NEWEST_TESTED);
                }
                known = read;
                return;
            } catch (IllegalArgumentException e) { // answered, but not a version makeroom reads: asking again won't help
                log.warn("the API server's version is not one makeroom reads ({}); using {}'s rules (set "
                        + "makeroom.cluster.kubernetes-version)", e.getMessage(), KubeVersion.NEWEST_TESTED);
                return;
            } catch (RuntimeException e) {
                if (!warned) {
                    log.warn("cannot read the API server's version yet ({}); using {}'s rules until it can be read",
                            e.getMessage(), KubeVersion.NEWEST_TESTED);
                    warned = true;
                }
            }
            try {
                Thread.sleep(RETRY.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        if (reader != null) {
            reader.interrupt();
        }
    }
}
