package dev.makeroom.web;

import org.springframework.boot.test.context.SpringBootTest;

/** kube-scheduler 1.32, nodeCacheCapable: false, with makeroom as its extender. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "makeroom.cluster.kubernetes-version=1.32", "makeroom.cluster.snapshot=src/test/resources/fixtures/kube-scheduler-v1.32/objects/cluster-at-preempt.json"})
class KubeScheduler132ObjectsReplayTest extends CapturedWithMakeroomReplay {

    @Override
    String folder() {
        return "kube-scheduler-v1.32/objects";
    }
}
