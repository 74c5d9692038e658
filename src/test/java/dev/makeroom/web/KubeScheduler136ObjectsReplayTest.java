package dev.makeroom.web;

import org.springframework.boot.test.context.SpringBootTest;

/** kube-scheduler 1.36, nodeCacheCapable: false, with makeroom as its extender. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties =
        "makeroom.cluster.snapshot=src/test/resources/fixtures/kube-scheduler-v1.36/objects/cluster-at-preempt.json")
class KubeScheduler136ObjectsReplayTest extends CapturedWithMakeroomReplay {

    @Override
    String folder() {
        return "kube-scheduler-v1.36/objects";
    }
}
