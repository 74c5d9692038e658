package dev.makeroom.cluster;

import dev.makeroom.support.Await;
import dev.makeroom.support.MockApiClients;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

@EnableKubernetesMockClient(crud = true)
class LeaseLeadershipTest {

    KubernetesClient client;

    @Test
    void of_two_replicas_exactly_one_leads_and_the_other_takes_over_when_it_stops() {
        LeaseLeadership first = new LeaseLeadership(MockApiClients.clientFor(client), "makeroom-system", "lease", "first")
                .start();
        LeaseLeadership second = new LeaseLeadership(MockApiClients.clientFor(client), "makeroom-system", "lease", "second")
                .start();
        try {
            Await.until("one replica leads", Duration.ofSeconds(30),
                    () -> first.leading() || second.leading());
            LeaseLeadership leader = first.leading() ? first : second;
            LeaseLeadership follower = leader == first ? second : first;
            assertThat(follower.leading()).isFalse();
            String name = leader == first ? "first" : "second";
            Await.until("the follower knows who leads", Duration.ofSeconds(30), () -> name.equals(follower.leader()));
            assertThat(client.leases().inNamespace("makeroom-system").withName("lease").get().getSpec().getHolderIdentity())
                    .isEqualTo(leader == first ? "first" : "second");
            leader.close();
            Await.until("the other replica takes over", Duration.ofSeconds(40), follower::leading);
            assertThat(leader.leading()).isFalse();
        } finally {
            first.close();
            second.close();
        }
    }
}
