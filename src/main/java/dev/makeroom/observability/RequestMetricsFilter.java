package dev.makeroom.observability;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.util.function.Predicate;

/**
 * Times every extender call, whatever answered it (the verb, the size limit or an error handler),
 * except those {@code unrecorded} says are not the scheduler's (makeroom warming its own HTTP path).
 */
public class RequestMetricsFilter extends OncePerRequestFilter {

    private final ExtenderMetrics metrics;
    private final Predicate<HttpServletRequest> unrecorded;

    public RequestMetricsFilter(ExtenderMetrics metrics, Predicate<HttpServletRequest> unrecorded) {
        this.metrics = metrics;
        this.unrecorded = unrecorded;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (unrecorded.test(request)) {
            chain.doFilter(request, response);
            return;
        }
        long start = System.nanoTime();
        try {
            chain.doFilter(request, response);
        } finally {
            metrics.recordRequest(verb(request.getRequestURI()), ExtenderMetrics.outcomeOf(response.getStatus()), System.nanoTime() - start);
        }
    }

    private static String verb(String uri) {
        String last = uri.substring(uri.lastIndexOf('/') + 1);
        return ExtenderMetrics.VERBS.contains(last) ? last : "other";
    }
}
