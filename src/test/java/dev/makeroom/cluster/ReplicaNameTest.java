package dev.makeroom.cluster;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rescheduler's lease is held under a name of this process alone: two replicas that share a host
 * name (hostNetwork pods on one node) would otherwise both hold the lease and both lead (seen with two
 * replicas on one host against a real 1.26 API server: both logged "this replica leads").
 */
class ReplicaNameTest {

    @Test
    void the_lease_identity_is_the_replica_name_made_unique() {
        String identity = ReplicaName.leaseIdentity();
        assertThat(identity).startsWith(ReplicaName.get() + "_");
        assertThat(identity.substring(ReplicaName.get().length() + 1)).hasSize(36); // a random UUID
        assertThat(identity).isNotEqualTo(ReplicaName.get());
    }
}
