package dev.makeroom.debug;

import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Json;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * makeroom served on a dump with devices (the DRA cluster of the why tests): the debug API says devices
 * are modelled, lists a node's devices with who holds them, and simulate refuses the nodes where a
 * pod's claims cannot be allocated in the scheduler's words.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "makeroom.cluster.snapshot=src/test/resources/clusters/dra-cluster.yaml")
class DevicesOverHttpTest {

    @LocalManagementPort
    int managementPort;

    @Test
    void the_debug_api_shows_devices_who_holds_them_and_where_claims_can_go() {
        ExtenderClient debug = new ExtenderClient(managementPort);
        JsonNode config = Json.parse(debug.get("/debug/config").body());
        assertThat(config.at("/devices/modelled").asBoolean()).isTrue();

        JsonNode node = Json.parse(debug.get("/debug/nodes/node-2").body());
        assertThat(node.get("devices")).hasSize(4);
        assertThat(node.at("/devices/0/device").asString()).isEqualTo("gpu.example.com/node-2/gpu-0");
        assertThat(node.at("/devices/0/attributes/gpu.example.com~1model").asString()).isEqualTo("H100");
        assertThat(node.at("/devices/0/heldBy/0").asString()).isEqualTo("team/holder-5-gpus");
        assertThat(node.at("/devices/0/pods/0").asString()).isEqualTo("team/holder-5");
        JsonNode freeOnThree = Json.parse(debug.get("/debug/nodes/node-3").body()).at("/devices/3");
        assertThat(freeOnThree.get("heldBy")).isEmpty();

        var simulated = debug.post("/debug/simulate", "application/json", "{\"pod\":\"team/trainer\"}");
        assertThat(simulated.statusCode()).isEqualTo(200);
        JsonNode answer = Json.parse(simulated.body());
        assertThat(answer.get("fitsOn")).isEmpty();
        assertThat(answer.at("/unresolvable/node-1").asString()).isEqualTo("cannot allocate all claims");
        JsonNode any = Json.parse(debug.post("/debug/simulate", "application/json", "{\"pod\":\"team/any-model\"}").body());
        assertThat(any.get("fitsOn").toString()).isEqualTo("[\"node-3\"]");
    }
}
