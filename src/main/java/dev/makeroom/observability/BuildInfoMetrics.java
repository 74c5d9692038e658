package dev.makeroom.observability;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.info.BuildProperties;
import org.springframework.stereotype.Component;

/**
 * {@code makeroom_build_info{version,java}} = 1, as the kube-scheduler, Kueue and the descheduler
 * expose theirs: which version each replica runs, for dashboards and rollouts.
 */
@Component
class BuildInfoMetrics implements InitializingBean {

    private final ObjectProvider<BuildProperties> build;
    private final MeterRegistry registry;

    BuildInfoMetrics(ObjectProvider<BuildProperties> build, MeterRegistry registry) {
        this.build = build;
        this.registry = registry;
    }

    @Override
    public void afterPropertiesSet() {
        BuildProperties properties = build.getIfAvailable();
        String version = properties == null || properties.getVersion() == null ? "unknown" : properties.getVersion();
        Gauge.builder("makeroom.build.info", () -> 1).description("1, labelled with the version of makeroom and of Java")
                .tag("version", version).tag("java", System.getProperty("java.version"))
                .register(registry);
    }
}
