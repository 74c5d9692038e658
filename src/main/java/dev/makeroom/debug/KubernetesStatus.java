package dev.makeroom.debug;

import dev.makeroom.process.JsonErrorReportValve;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Errors of the aggregated debug API as the API server's own are: a {@code Status} of failure with a
 * reason kubectl names ({@code Error from server (NotFound): …}).
 */
final class KubernetesStatus {

    private KubernetesStatus() {
    }

    /** The debug API's {@code {"error": …}}, or the status's own words when the body is something else. */
    static String messageOf(byte[] body, int code) {
        try {
            String error = JsonMapper.shared().readTree(body).path("error").asString(null);
            if (error != null) {
                return error;
            }
        } catch (JacksonException e) {
            // not the debug API's JSON: fall through to the status alone
        }
        return "HTTP " + code;
    }

    /** A Kubernetes {@code Status} of failure, as the API server's own errors are. */
    static void write(HttpServletResponse response, int code, String message) throws IOException {
        String reason = switch (code) {
            case 400 -> "BadRequest";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "NotFound";
            case 405 -> "MethodNotAllowed";
            case 409 -> "Conflict";
            case 415 -> "UnsupportedMediaType";
            case 503 -> "ServiceUnavailable";
            default -> code >= 500 ? "InternalError" : "BadRequest";
        };
        byte[] body = ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
                + JsonErrorReportValve.quoted(message) + ",\"reason\":\"" + reason + "\",\"code\":" + code + "}")
                .getBytes(StandardCharsets.UTF_8);
        response.setStatus(code);
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
