package dev.makeroom.cluster;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** This replica's name: its pod name inside a cluster (HOSTNAME), else its host's, else its process id. */
public final class ReplicaName {

    private static final String NAME = find();
    // two processes may share a name (hostNetwork pods on one node, two replicas on one host): a lease
    // held under a shared name would let both lead, as client-go's hostname_uuid identities avoid
    private static final String LEASE_IDENTITY = NAME + "_" + java.util.UUID.randomUUID();

    private ReplicaName() {
    }

    public static String get() {
        return NAME;
    }

    /** The name this process holds the rescheduler's lease under: the replica's name and a suffix no other process has. */
    public static String leaseIdentity() {
        return LEASE_IDENTITY;
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
