package dev.makeroom.web;

import dev.makeroom.config.MakeroomProperties;
import dev.makeroom.observability.ExtenderMetrics;
import dev.makeroom.observability.RequestMetricsFilter;
import dev.makeroom.process.BadQueryStringFilter;
import dev.makeroom.process.JsonErrorReportValve;
import dev.makeroom.web.json.AnswerBytesConverter;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import dev.makeroom.web.json.WireJson;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Servlet plumbing for the extender endpoints. */
@Configuration(proxyBeanMethods = false)
class WebConfiguration implements WebMvcConfigurer {

    @Override
    public void configureMessageConverters(HttpMessageConverters.ServerBuilder converters) {
        converters.addCustomConverter(new AnswerBytesConverter());
    }

    @Bean
    FilterRegistrationBean<RequestMetricsFilter> requestMetrics(MakeroomProperties properties, ExtenderMetrics metrics,
                                                                WarmupRequests warmups) {
        FilterRegistrationBean<RequestMetricsFilter> registration = new FilterRegistrationBean<>(
                new RequestMetricsFilter(metrics, warmups::isWarmup));
        registration.addUrlPatterns(properties.web().prefix() + "/*");
        registration.setOrder(1); // outside the size limit, so refused bodies are timed too
        return registration;
    }

    /**
     * filter and prioritize answered in Tomcat's pipeline ({@link NodeVerbValve}), before the servlet
     * filters and Spring's dispatcher, which serve preempt and every other path.
     */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> nodeVerbValve(MakeroomProperties properties, NodeVerbs verbs,
                                                                       WireJson json, ExtenderMetrics metrics,
                                                                       WarmupRequests warmups) {
        return factory -> factory.addContextValves(new NodeVerbValve(properties.web().prefix(), verbs, json, metrics,
                warmups, properties.web().maxRequestSize().toBytes()));
    }

    /** What Tomcat refuses before any servlet (an encoded slash in the path) is JSON too, in the wire's shape. */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> extenderErrorPage() {
        return JsonErrorReportValve.on(JsonErrorReportValve.ExtenderPort.class);
    }

    /** First of all: a query string Tomcat cannot parse is a 400 before anything asks for a parameter. */
    @Bean
    FilterRegistrationBean<BadQueryStringFilter> badQueryStrings() {
        return BadQueryStringFilter.firstOnPort("Error");
    }

    @Bean
    FilterRegistrationBean<RequestSizeLimitFilter> requestSizeLimit(MakeroomProperties properties) {
        FilterRegistrationBean<RequestSizeLimitFilter> registration = new FilterRegistrationBean<>(
                new RequestSizeLimitFilter(properties.web().maxRequestSize().toBytes()));
        registration.addUrlPatterns(properties.web().prefix() + "/*");
        registration.setOrder(2);
        return registration;
    }

    /**
     * A request's facades, streams and parameter map kept with its connection's request object and
     * cleared when it is recycled, rather than made again for every request (Tomcat's default, a guard
     * against an application that holds on to a request past its end; makeroom holds none): a call
     * the scheduler waits for then allocates nothing for them.
     */
    @Bean
    TomcatConnectorCustomizer keptRequestFacades() {
        return connector -> connector.setDiscardFacades(false);
    }

    /** Larger socket buffers, so a whole answer naming thousands of nodes goes out in one or two writes. */
    @Bean
    TomcatConnectorCustomizer socketBuffers(MakeroomProperties properties) {
        String bytes = Long.toString(properties.web().socketBuffer().toBytes());
        return connector -> {
            connector.setProperty("socket.appReadBufSize", bytes);
            connector.setProperty("socket.appWriteBufSize", bytes);
        };
    }
}
