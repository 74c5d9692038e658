package dev.makeroom.cluster;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** This replica's name: its pod name inside a cluster (HOSTNAME), else its host's, else its process id. */
public final class ReplicaName {

    private static final String NAME = find();

    private ReplicaName() {
    }

    public static String get() {
        return NAME;
    }

    private static String find() {
        String pod = System.getenv("HOSTNAME");
        if (pod != null && !pod.isBlank()) {
            return pod;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "makeroom-" + ProcessHandle.current().pid();
        }
    }
}
