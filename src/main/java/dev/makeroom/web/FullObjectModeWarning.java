package dev.makeroom.web;

import dev.makeroom.core.model.KubeVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One WARN, the first time a scheduler of Kubernetes 1.30 or later sends filter whole Node objects
 * ({@code nodeCacheCapable: false}): that scheduler turns the Node objects an extender hands back into
 * node infos without their pods, so it scores the nodes that pass as if they were empty (its
 * {@code HTTPExtender.Filter}). makeroom cannot answer around it; names mode is unaffected.
 */
final class FullObjectModeWarning {

    private static final Logger log = LoggerFactory.getLogger(FullObjectModeWarning.class);

    private final AtomicBoolean warned = new AtomicBoolean();

    /** Says so once, when {@code version}'s scheduler sent node objects; whether it did now. */
    boolean check(boolean nodeObjects, KubeVersion version) {
        if (!nodeObjects || !version.scoresReturnedNodeObjectsAsEmpty() || !warned.compareAndSet(false, true)) {
            return false;
        }
        log.warn("kube-scheduler {} sends makeroom whole Node objects (nodeCacheCapable: false): from Kubernetes 1.30 "
                + "the scheduler scores the nodes an extender's filter returns as objects as if they ran no pods, which "
                + "skews its choice of node. Register makeroom with nodeCacheCapable: true (see README, Compatibility).",
                version);
        return true;
    }
}
