package dev.makeroom.web;

import dev.makeroom.config.MakeroomProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Servlet plumbing for the extender endpoints. */
@Configuration(proxyBeanMethods = false)
class WebConfiguration {

    @Bean
    FilterRegistrationBean<RequestSizeLimitFilter> requestSizeLimit(MakeroomProperties properties) {
        FilterRegistrationBean<RequestSizeLimitFilter> registration = new FilterRegistrationBean<>(
                new RequestSizeLimitFilter(properties.web().maxRequestSize().toBytes()));
        registration.addUrlPatterns(properties.web().prefix() + "/*");
        return registration;
    }
}
