package dev.makeroom.process;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import jakarta.servlet.ServletException;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Tomcat's own error page as JSON. A request Tomcat refuses before any servlet sees it (an encoded
 * {@code /} or {@code ..} in the path, a malformed request line) got Tomcat's HTML page; every other
 * error on both ports is JSON. Each port keeps its shape: {@code {"Error": …}} on the extender's,
 * {@code {"error": …}} on the management port's, so there is one subclass per port (the host makes
 * the valve from its class name).
 */
public abstract class JsonErrorReportValve extends ErrorReportValve {

    private final String errorKey;

    protected JsonErrorReportValve(String errorKey) {
        this.errorKey = errorKey;
    }

    /** The extender port's valve: {@code {"Error": …}}, the extender protocol's own error field. */
    public static final class ExtenderPort extends JsonErrorReportValve {
        public ExtenderPort() {
            super("Error");
        }
    }

    /** The management port's valve: {@code {"error": …}}, as the debug API answers. */
    public static final class ManagementPort extends JsonErrorReportValve {
        public ManagementPort() {
            super("error");
        }
    }

    /** Makes the server's host report errors with {@code valve} instead of Tomcat's HTML one. */
    public static WebServerFactoryCustomizer<TomcatServletWebServerFactory> on(Class<? extends JsonErrorReportValve> valve) {
        return factory -> factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(valve.getName());
            }
        });
    }

    /** {@code {"<key>": "<message>"}} as UTF-8, the message escaped as a JSON string. */
    public static byte[] errorBody(String key, String message) {
        return ("{\"" + key + "\":" + quoted(message) + "}").getBytes(StandardCharsets.UTF_8);
    }

    /** {@code text} as a JSON string, quotes included. */
    public static String quoted(String text) {
        StringBuilder json = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                json.append('\\').append(c);
            } else if (c < 0x20) {
                json.append(String.format("\\u%04x", (int) c));
            } else {
                json.append(c);
            }
        }
        return json.append('"').toString();
    }

    /**
     * A request the connector refused before any application code (TRACE, an encoded slash) is
     * answered here: passed on, it would reach the application's error page in another shape.
     */
    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        if (response.isError()) {
            response.setErrorReported();
            response.setSuspended(false); // sendError suspended the output; this is the answer it stood for
            write(request, response);
            return;
        }
        super.invoke(request, response);
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        if (response.getStatus() >= 400 && response.getContentWritten() == 0 && response.setErrorReported()) {
            write(request, response);
        }
    }

    private void write(Request request, Response response) {
        int status = response.getStatus();
        String message = status == 400 ? "bad request: the path or the request line cannot be read"
                : status == 404 ? "no such endpoint"
                : status == 405 ? "method " + request.getMethod() + " is not allowed"
                : "HTTP " + status;
        byte[] body = errorBody(errorKey, message);
        try {
            response.setContentType("application/json");
            response.setContentLength(body.length);
            OutputStream out = response.getOutputStream();
            out.write(body);
            response.finishResponse();
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the response was taken: nothing left to tell it
        }
    }
}
