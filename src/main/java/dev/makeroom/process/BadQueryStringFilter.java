package dev.makeroom.process;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Answers 400 with a JSON error to a request whose query string is not valid percent-encoded UTF-8,
 * before anything reads its parameters: Tomcat parses them on first use and throws, which any
 * endpoint (the verbs, the debug API, the actuator) would otherwise answer with a 500. First on both
 * ports; {@code errorKey} is the port's error shape ({@code Error} on the extender's, {@code error} on
 * the management port's).
 */
public final class BadQueryStringFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(BadQueryStringFilter.class);

    private final String errorKey;

    public BadQueryStringFilter(String errorKey) {
        this.errorKey = errorKey;
    }

    /** The filter registered first of all on a port whose errors are {@code {"<errorKey>": …}}. */
    public static FilterRegistrationBean<BadQueryStringFilter> firstOnPort(String errorKey) {
        FilterRegistrationBean<BadQueryStringFilter> registration = new FilterRegistrationBean<>(
                new BadQueryStringFilter(errorKey));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String problem = problem(request.getQueryString());
        if (problem == null) {
            chain.doFilter(request, response);
            return;
        }
        log.debug("bad query string on port {} for {} {}: {}", request.getLocalPort(), request.getMethod(),
                request.getRequestURI(), problem);
        byte[] body = JsonErrorReportValve.errorBody(errorKey, problem);
        response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /** What is wrong with the raw query string (fixed words, never the input), or null when nothing is. */
    public static String problem(String query) {
        if (query == null) {
            return null;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(query.length());
        for (int i = 0; i < query.length(); i++) {
            char c = query.charAt(i);
            if (c != '%') {
                bytes.write(c > 0x7f ? '?' : c); // a raw non-ASCII character: Tomcat refused it already
                continue;
            }
            int high = i + 1 < query.length() ? Character.digit(query.charAt(i + 1), 16) : -1;
            int low = i + 2 < query.length() ? Character.digit(query.charAt(i + 2), 16) : -1;
            if (high < 0 || low < 0) {
                return "the query string has a '%' at position " + i + " not followed by two hex digits";
            }
            bytes.write(high * 16 + low);
            i += 2;
        }
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray()));
            return null;
        } catch (CharacterCodingException e) {
            return "the query string's percent-encoded bytes are not UTF-8";
        }
    }
}
