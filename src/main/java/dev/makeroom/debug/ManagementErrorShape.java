package dev.makeroom.debug;

import dev.makeroom.process.JsonErrorReportValve;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.web.ErrorResponse;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

import java.io.IOException;

/**
 * Errors on the management port (its own server) in the debug API's shape, {@code {"error": …}}:
 * a path no route serves, Spring's request errors, and what Tomcat refuses before any servlet.
 * Without it the extender's handler ({@code web.WireErrorHandler}, found through the parent
 * context) answered here in the extender protocol's shape, and logged every failure as an extender
 * request's.
 */
@ManagementContextConfiguration(value = ManagementContextType.CHILD, proxyBeanMethods = false)
class ManagementErrorShape {

    private static final Logger log = LoggerFactory.getLogger(ManagementErrorShape.class);

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> managementErrorPage() {
        return JsonErrorReportValve.on(JsonErrorReportValve.ManagementPort.class);
    }

    /** First of the management server's exception resolvers, ahead of the parent context's. */
    @Bean
    ManagementErrors managementErrors() {
        return new ManagementErrors();
    }

    static final class ManagementErrors implements HandlerExceptionResolver, Ordered {

        @Override
        public ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response, Object handler,
                                             Exception e) {
            if (e instanceof ErrorResponse error && !error.getStatusCode().is5xxServerError()) {
                int status = error.getStatusCode().value();
                return answer(response, status, status == 404 ? notFound(request) : error.getBody().getDetail());
            }
            log.error("management port: {} {} failed unexpectedly", request.getMethod(), request.getRequestURI(), e);
            return answer(response, 500, "internal error: " + e.getClass().getSimpleName());
        }

        @Override
        public int getOrder() {
            return Ordered.HIGHEST_PRECEDENCE;
        }
    }

    private static String notFound(HttpServletRequest request) {
        return "no such endpoint: " + request.getMethod() + " " + request.getRequestURI() + " (GET /debug lists the debug API)";
    }

    private static ModelAndView answer(HttpServletResponse response, int status, String message) {
        String text = message == null ? "HTTP " + status : message;
        byte[] body = JsonErrorReportValve.errorBody("error", text);
        try {
            response.setStatus(status);
            response.setContentType("application/json");
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
        } catch (IOException | IllegalStateException e) {
            log.debug("management port: the error could not be written: {}", e.toString());
        }
        return new ModelAndView(); // handled: nothing more to render
    }
}
