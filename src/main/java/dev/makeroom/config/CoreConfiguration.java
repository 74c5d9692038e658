package dev.makeroom.config;

import dev.makeroom.cluster.ClusterView;
import dev.makeroom.cluster.SnapshotFileClusterView;
import dev.makeroom.core.filter.FilterPolicy;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.core.preemption.PreemptionSettings;
import dev.makeroom.core.score.ShieldScorePolicy;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.nio.file.Path;

/** Wires the pure core and the cluster view from {@link MakeroomProperties}. */
@Configuration(proxyBeanMethods = false)
class CoreConfiguration {

    @Bean
    ClusterView clusterView(MakeroomProperties properties) {
        String file = properties.cluster().snapshot();
        if (file == null || file.isBlank()) {
            throw new IllegalStateException(
                    "makeroom.cluster.source=snapshot needs makeroom.cluster.snapshot=<path to a file of Kubernetes objects>");
        }
        return new SnapshotFileClusterView(Path.of(file));
    }

    @Bean
    PreemptionEngine preemptionEngine(MakeroomProperties properties) {
        MakeroomProperties.Preemption p = properties.preemption();
        return new PreemptionEngine(new PreemptionSettings(p.strategy(), p.answer(), p.pdb(), p.budget()),
                System::nanoTime);
    }

    @Bean
    FilterPolicy filterPolicy() {
        return new FilterPolicy();
    }

    @Bean
    ShieldScorePolicy scorePolicy() {
        return new ShieldScorePolicy();
    }
}
