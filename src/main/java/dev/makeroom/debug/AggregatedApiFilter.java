package dev.makeroom.debug;

import dev.makeroom.cluster.AggregatedApiListener;
import dev.makeroom.cluster.DebugCaller;
import dev.makeroom.cluster.FrontProxy;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The debug API as the aggregated API {@code debug.makeroom.dev/v1}, on the aggregation port only: a
 * request must come from the API server's front proxy ({@link FrontProxy}); then
 * {@code /apis/debug.makeroom.dev/v1/<route>} is {@code /debug/<route>} for the user the front proxy
 * names (the routes review that user as they review a bearer token's), the discovery documents the
 * API server asks for are answered here, and every error is a Kubernetes {@code Status}, so that
 * {@code kubectl get --raw} prints its message. Nothing else (health, metrics) is served on this port.
 */
final class AggregatedApiFilter extends OncePerRequestFilter {

    static final String GROUP = "debug.makeroom.dev";
    static final String VERSION = "v1";
    private static final String PREFIX = "/apis/" + GROUP + "/" + VERSION;

    /** The request attribute that carries the asserted caller to the debug routes' access check. */
    static final String CALLER = AggregatedApiFilter.class.getName() + ".caller";

    private static final String GROUP_VERSION = "{\"groupVersion\":\"" + GROUP + "/" + VERSION + "\",\"version\":\""
            + VERSION + "\"}";
    private static final String API_GROUP = "{\"kind\":\"APIGroup\",\"apiVersion\":\"v1\",\"name\":\"" + GROUP
            + "\",\"versions\":[" + GROUP_VERSION + "],\"preferredVersion\":" + GROUP_VERSION + "}";
    private static final String API_GROUP_LIST = "{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":["
            + API_GROUP + "]}";
    // no resources: the routes are read with --raw, and nothing here is a Kubernetes object to list or watch
    private static final String API_RESOURCE_LIST = "{\"kind\":\"APIResourceList\",\"apiVersion\":\"v1\","
            + "\"groupVersion\":\"" + GROUP + "/" + VERSION + "\",\"resources\":[]}";

    private final AggregatedApiListener listener;

    AggregatedApiFilter(AggregatedApiListener listener) {
        this.listener = listener;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getLocalPort() != listener.port()) {
            chain.doFilter(request, response);
            return;
        }
        FrontProxy.Outcome outcome = listener.frontProxy().authenticate(
                (X509Certificate[]) request.getAttribute("jakarta.servlet.request.X509Certificate"), headers(request));
        if (outcome instanceof FrontProxy.Outcome.Refused refused) {
            KubernetesStatus.write(response, refused.status(), refused.reason());
            return;
        }
        // decoded and normalized: a ".." or an encoded one cannot climb out of the prefix
        String path = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        String discovery = switch (path) {
            case "/apis", "/apis/" -> API_GROUP_LIST;
            case "/apis/" + GROUP, "/apis/" + GROUP + "/" -> API_GROUP;
            case PREFIX, PREFIX + "/" -> API_RESOURCE_LIST;
            default -> null;
        };
        if (discovery != null) {
            if (!request.getMethod().equals("GET")) {
                KubernetesStatus.write(response, 405, request.getMethod() + " " + path + " is not served: discovery is read with GET");
                return;
            }
            byte[] body = discovery.getBytes(StandardCharsets.UTF_8);
            response.setContentType("application/json");
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
            return;
        }
        String route = path.startsWith(PREFIX + "/") ? path.substring(PREFIX.length() + 1) : null;
        if (route == null || route.isEmpty() || route.chars().anyMatch(c -> c == '%' || c == '?' || c == ';' || c == '#')) {
            KubernetesStatus.write(response, 404, "no such path: " + path + " (this port serves " + PREFIX + "/<debug route>,"
                    + " e.g. " + PREFIX + "/decisions)");
            return;
        }
        if (!(outcome instanceof FrontProxy.Outcome.Asserted asserted)) {
            KubernetesStatus.write(response, 401, "the front proxy named no user (" + ((FrontProxy.Outcome.Unnamed) outcome).userHeaders() + ")");
            return;
        }
        request.setAttribute(CALLER, asserted.caller());
        ContentCachingResponseWrapper answer = new ContentCachingResponseWrapper(response);
        chain.doFilter(new DebugRouteRequest(request, "/debug/" + route), answer);
        if (answer.getStatus() >= 400) {
            int code = answer.getStatus();
            String message = KubernetesStatus.messageOf(answer.getContentAsByteArray(), code);
            answer.resetBuffer();
            KubernetesStatus.write(response, code, message);
            return;
        }
        answer.copyBodyToResponse();
    }

    /** The request as the debug route sees it: the same, at {@code /debug/<route>}. */
    private static final class DebugRouteRequest extends HttpServletRequestWrapper {

        private final String path;

        DebugRouteRequest(HttpServletRequest request, String path) {
            super(request);
            this.path = path;
        }

        @Override
        public String getRequestURI() {
            return getContextPath() + path;
        }

        @Override
        public StringBuffer getRequestURL() {
            return new StringBuffer(getScheme() + "://" + getServerName() + ":" + getServerPort() + getRequestURI());
        }

        @Override
        public String getServletPath() {
            return path;
        }

        @Override
        public String getPathInfo() {
            return null;
        }
    }

    /** The caller the aggregation port's filter let in, if this request came that way. */
    static DebugCaller.Asserted callerOf(Object attribute) {
        return attribute instanceof DebugCaller.Asserted asserted ? asserted : null;
    }

    /** Every header with all its values, as sent (FrontProxy reads the names in any case). */
    private static Map<String, List<String>> headers(HttpServletRequest request) {
        Map<String, List<String>> headers = new HashMap<>();
        for (String name : Collections.list(request.getHeaderNames())) {
            headers.put(name, Collections.list(request.getHeaders(name)));
        }
        return headers;
    }
}
