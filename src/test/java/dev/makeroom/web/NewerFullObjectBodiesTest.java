package dev.makeroom.web;

import org.springframework.boot.test.context.SpringBootTest;

/** Newer scheduler bodies in the full-object mode (Node and Pod objects). */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties =
        "makeroom.cluster.snapshot=src/test/resources/fixtures/kube-scheduler-v1.26/full-objects/cluster-at-preempt.json")
class NewerFullObjectBodiesTest extends NewerSchedulerBodies {

    @Override
    String folder() {
        return "full-objects";
    }
}
