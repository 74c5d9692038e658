package dev.makeroom.debug;

import dev.makeroom.cluster.DebugAccess;
import dev.makeroom.core.model.ClusterView;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.observability.DecisionLog;
import dev.makeroom.queues.QueueConfigService;
import dev.makeroom.queues.Queues;
import dev.makeroom.rescheduler.Rescheduler;
import dev.makeroom.process.BadQueryStringFilter;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

import java.time.Clock;

/**
 * Puts the debug API in the management context, so it listens on the management port, not the
 * extender's; every route passes {@link DebugAccess} first (health and metrics are not routes here, so
 * they stay open).
 */
@ManagementContextConfiguration(value = ManagementContextType.ANY, proxyBeanMethods = false)
class DebugManagementConfiguration {

    /** The management port's own first filter: a bad query string is a 400 here too, in the debug API's shape. */
    @Bean
    FilterRegistrationBean<BadQueryStringFilter> managementBadQueryStrings() {
        return BadQueryStringFilter.firstOnPort("error");
    }

    @Bean
    RouterFunction<ServerResponse> debugRoutes(ClusterView view, DecisionLog decisions,
                                               PreemptionEngine engine, QueueConfigService queueConfig, Queues queues,
                                               Clock clock, Rescheduler rescheduler, DebugAccess access) {
        DebugHandlers debug = new DebugHandlers(view, decisions, engine, queues, clock);
        QueueDebug queueDebug = new QueueDebug(view, queueConfig, queues);
        ReschedulerDebug reschedulerDebug = new ReschedulerDebug(rescheduler);
        return RouterFunctions.route()
                .GET("/debug/queues", queueDebug::tree)
                .GET("/debug/queues/{name}", queueDebug::one)
                .GET("/debug/decisions", debug::decisions)
                .GET("/debug/nodes", debug::nodes)
                .GET("/debug/nodes/{name}", debug::node)
                .POST("/debug/simulate", debug::simulate)
                .GET("/debug/rescheduler", reschedulerDebug::state)
                .POST("/debug/rescheduler/plan", reschedulerDebug::plan)
                .filter((request, next) -> {
                    DebugAccess.Verdict verdict = access.check(request.headers().firstHeader(HttpHeaders.AUTHORIZATION),
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
