package dev.makeroom.debug;

import dev.makeroom.cluster.DebugAccess;
import dev.makeroom.cluster.DebugCaller;
import dev.makeroom.core.model.ClusterView;
import dev.makeroom.core.preemption.PreemptionPipeline;
import dev.makeroom.observability.DecisionLog;
import dev.makeroom.queueconfig.QueueConfigService;
import dev.makeroom.queueconfig.Queues;
import dev.makeroom.rescheduler.Rescheduler;
import dev.makeroom.process.BadQueryStringFilter;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

import java.time.Clock;
import java.util.List;

/**
 * Puts the debug API in the management context, so it listens on the management port, not the
 * extender's; every route passes {@link DebugAccess} first (health and metrics are not routes here, so
 * they stay open). {@code GET /debug} lists the routes ({@link DebugEndpoint}).
 */
@ManagementContextConfiguration(value = ManagementContextType.ANY, proxyBeanMethods = false)
class DebugManagementConfiguration {

    /**
     * Before anything reads the parameters, a bad query string is a 400 here too, in the debug API's
     * shape; second only to the aggregation port's filter ({@link AggregatedApiPort}).
     */
    @Bean
    FilterRegistrationBean<BadQueryStringFilter> managementBadQueryStrings() {
        FilterRegistrationBean<BadQueryStringFilter> registration = BadQueryStringFilter.firstOnPort("error");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
        return registration;
    }

    @Bean
    RouterFunction<ServerResponse> debugRoutes(ClusterView view, DecisionLog decisions,
                                               PreemptionPipeline pipeline, QueueConfigService queueConfig, Queues queues,
                                               Clock clock, Rescheduler rescheduler, DebugAccess access,
                                               ConfigurableEnvironment environment) {
        DebugHandlers debug = new DebugHandlers(view, decisions, pipeline, queues, clock);
        QueueDebug queueDebug = new QueueDebug(view, queueConfig, queues);
        ReschedulerDebug reschedulerDebug = new ReschedulerDebug(rescheduler);
        ConfigDebug configDebug = new ConfigDebug(environment, rescheduler, queueConfig, view);
        PageAssets page = new PageAssets();
        List<DebugEndpoint> endpoints = List.of(
                new DebugEndpoint("GET", "/debug/page/", "the page: the nodes, a pod's story, decisions, queues and the"
                        + " rescheduler, in a browser", page::file),
                new DebugEndpoint("GET", "/debug/config", "the settings in force, each with where it came from"
                        + " (default, a property source), and the policies and queue documents' sources",
                        configDebug::config),
                new DebugEndpoint("GET", "/debug/queues", "the queue tree: each queue's usage, guarantee, max, pending"
                        + " and preempting", queueDebug::tree),
                new DebugEndpoint("GET", "/debug/queues/{name}", "one queue", queueDebug::one),
                new DebugEndpoint("GET", "/debug/decisions", "the recent preemption decisions (?pod=namespace/name)",
                        debug::decisions),
                new DebugEndpoint("GET", "/debug/nodes", "every node as makeroom sees it", debug::nodes),
                new DebugEndpoint("GET", "/debug/nodes/{name}", "one node and its pods", debug::node),
                new DebugEndpoint("GET", "/debug/pending", "the pods waiting to be scheduled, highest priority first",
                        debug::pending),
                new DebugEndpoint("POST", "/debug/simulate", "what preemption would decide for a pod (the body), on"
                        + " the live view", debug::simulate),
                new DebugEndpoint("GET", "/debug/why", "why a pod waits, in words (?pod=namespace/name): --why's"
                        + " explanation on the live view, with makeroom's settings and queues", debug::why),
                new DebugEndpoint("POST", "/debug/why", "the same for a pod of your own (the body, as simulate"
                        + " takes it)", debug::why),
                new DebugEndpoint("GET", "/debug/rescheduler", "the rescheduler: mode, leader, policies, recent rounds",
                        reschedulerDebug::state),
                new DebugEndpoint("POST", "/debug/rescheduler/plan", "what a round would do now (a policies document"
                        + " as the body to try one; ?pod= for one pending pod)", reschedulerDebug::plan));
        List<DebugEndpoint.Listed> index = endpoints.stream().map(DebugEndpoint::listed).toList();
        RouterFunctions.Builder routes = RouterFunctions.route()
                .GET("/debug", request -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).body(index))
                .GET("/debug/page", page::folder)
                .GET("/debug/page/{file}", page::file);
        for (DebugEndpoint endpoint : endpoints) {
            if (endpoint.method().equals("GET")) {
                routes.GET(endpoint.path(), endpoint.handler());
            } else {
                routes.POST(endpoint.path(), endpoint.handler());
            }
        }
        return routes
                .filter((request, next) -> {
                    DebugCaller.Asserted asserted = AggregatedApiFilter.callerOf(
                            request.attribute(AggregatedApiFilter.CALLER).orElse(null));
                    DebugAccess.Verdict verdict = access.check(asserted != null ? asserted
                                    : new DebugCaller.Bearer(request.headers().firstHeader(HttpHeaders.AUTHORIZATION)),
                            request.path(), request.method().name());
                    if (verdict.allowed()) {
                        return next.handle(request);
                    }
                    ServerResponse.BodyBuilder refused = ServerResponse.status(verdict.status())
                            .contentType(MediaType.APPLICATION_JSON);
                    if (verdict.status() == 401) {
                        refused.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
                    }
                    return refused.body(new ReschedulerDebug.Problem(verdict.reason()));
                })
                .build();
    }
}
