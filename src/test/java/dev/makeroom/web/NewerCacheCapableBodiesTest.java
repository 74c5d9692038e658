package dev.makeroom.web;

import org.springframework.boot.test.context.SpringBootTest;

/** Newer scheduler bodies in the cache-capable mode (node names, meta victims). */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties =
        "makeroom.cluster.snapshot=src/test/resources/fixtures/kube-scheduler-v1.26/cache-capable/cluster-at-preempt.json")
class NewerCacheCapableBodiesTest extends NewerSchedulerBodies {

    @Override
    String folder() {
        return "cache-capable";
    }
}
