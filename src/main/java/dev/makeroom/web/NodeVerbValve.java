package dev.makeroom.web;

import dev.makeroom.observability.ExtenderMetrics;
import dev.makeroom.process.BadQueryStringFilter;
import dev.makeroom.web.json.AnswerBytes;
import dev.makeroom.web.json.BadRequestException;
import dev.makeroom.web.json.WireDtos;
import dev.makeroom.web.json.WireJson;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.tomcat.util.buf.MessageBytes;
import org.apache.tomcat.util.http.FastHttpDateFormat;
import org.apache.tomcat.util.http.MimeHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Function;

/**
 * filter and prioritize, answered in Tomcat's pipeline before any servlet filter or Spring's dispatcher.
 * The scheduler waits for these two calls on every pod it places, inside its scheduling cycle. Through
 * the servlet chain each call passed seven filters (Spring's encoding, observation, request-context and
 * form filters and makeroom's own three), the dispatcher's handler lookup, argument resolution and
 * message conversion: a quarter of each call's time under load (benchmarks log, 2026-11-27) and most of
 * its garbage (docs/benchmarks.md, "In the scheduler's path"). Here a call
 * is what the verb needs: its path matched on the request's own bytes, the body read into one array of
 * its declared length, the verb ({@link NodeVerbs}), the answer written from the thread's buffer.
 *
 * <p>What the filters did for these paths is done here: a query string that cannot be read refused (400,
 * as {@link BadQueryStringFilter} refuses it elsewhere), the size limit (413 past it, never read whole),
 * the call timed as {@code makeroom_extender_request_seconds} (makeroom's own warm-up calls not), and
 * every failure answered as the other verbs answer theirs ({@link WireErrorHandler}): JSON
 * {@code {"Error": …}}, 400 for a body makeroom cannot use, 405 for anything but POST. Every other
 * path goes on down the pipeline unchanged.
 */
final class NodeVerbValve extends ValveBase {

    private static final Logger log = LoggerFactory.getLogger(NodeVerbValve.class);

    private final String filterPath;
    private final String prioritizePath;
    private final Function<byte[], AnswerBytes> filter;
    private final Function<byte[], AnswerBytes> prioritize;
    private final WireJson json;
    private final ExtenderMetrics metrics;
    private final WarmupRequests warmups;
    private final long maxBytes;
    private volatile DateHeader lastDate = new DateHeader("", new byte[0]);

    private static final byte[] CONTENT_TYPE = "Content-Type".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] APPLICATION_JSON = "application/json".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] CONTENT_LENGTH = "Content-Length".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] DATE = "Date".getBytes(StandardCharsets.ISO_8859_1);

    NodeVerbValve(String prefix, NodeVerbs verbs, WireJson json, ExtenderMetrics metrics, WarmupRequests warmups,
                  long maxBytes) {
        super(true);
        this.filterPath = prefix + "/filter";
        this.prioritizePath = prefix + "/prioritize";
        this.filter = verbs::filter;
        this.prioritize = verbs::prioritize;
        this.json = json;
        this.metrics = metrics;
        this.warmups = warmups;
        this.maxBytes = maxBytes;
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, jakarta.servlet.ServletException {
        MessageBytes uri = request.getCoyoteRequest().requestURI(); // compared as bytes: no String per call
        boolean isFilter = uri.equals(filterPath);
        if (!isFilter && !uri.equals(prioritizePath)) {
            getNext().invoke(request, response);
            return;
        }
        String verb = isFilter ? "filter" : "prioritize";
        boolean recorded = !warmups.isWarmup(request);
        long start = System.nanoTime();
        try {
            answer(isFilter ? filter : prioritize, request, response);
        } finally {
            if (recorded) {
                metrics.recordRequest(verb, ExtenderMetrics.outcomeOf(response.getStatus()), System.nanoTime() - start);
            }
        }
    }

    private void answer(Function<byte[], AnswerBytes> verb, Request request, Response response) throws IOException {
        String badQuery = BadQueryStringFilter.problem(request.getQueryString()); // null, and no work, without one
        if (badQuery != null) {
            error(response, HttpServletResponse.SC_BAD_REQUEST, badQuery);
            return;
        }
        if (!"POST".equals(request.getMethod())) {
            response.setHeader("Allow", "POST");
            error(response, HttpServletResponse.SC_METHOD_NOT_ALLOWED, "use POST");
            return;
        }
        long declared = request.getContentLengthLong();
        if (declared > maxBytes) {
            error(response, 413, RequestSizeLimitFilter.declaredTooLarge(declared, maxBytes));
            return;
        }
        AnswerBytes answer;
        try {
            byte[] body = readBody(request.getInputStream(), declared, maxBytes);
            if (body.length > maxBytes) {
                error(response, 413, new RequestSizeLimitFilter.TooLargeException(maxBytes).getMessage());
                return;
            }
            answer = verb.apply(body);
        } catch (BadRequestException e) {
            log.debug("bad extender request: {}", e.getMessage());
            error(response, HttpServletResponse.SC_BAD_REQUEST, e.getMessage());
            return;
        } catch (JacksonException e) {
            error(response, HttpServletResponse.SC_BAD_REQUEST, "request body cannot be read");
            return;
        } catch (RuntimeException e) {
            log.error("extender port: {} {} failed unexpectedly", request.getMethod(), request.getRequestURI(), e);
            error(response, HttpServletResponse.SC_INTERNAL_SERVER_ERROR, "internal error: " + e.getClass().getSimpleName());
            return;
        }
        response.setStatus(HttpServletResponse.SC_OK);
        answerHeaders(response, answer.length());
        answer.writeTo(response.getOutputStream());
    }

    /**
     * An answer's headers, put into Tomcat's own as bytes. Given as Strings (the content type, and the
     * names and values Tomcat adds itself), each is encoded through a new encoder for every response:
     * about 1 KB of garbage a call, more than the rest of the call beyond its body. Tomcat writes the
     * length given here into the header of that name it finds, and adds no Date when one is there.
     */
    private void answerHeaders(Response response, long length) {
        MimeHeaders headers = response.getCoyoteResponse().getMimeHeaders();
        headers.addValue(CONTENT_TYPE, 0, CONTENT_TYPE.length).setBytes(APPLICATION_JSON, 0, APPLICATION_JSON.length);
        headers.addValue(CONTENT_LENGTH, 0, CONTENT_LENGTH.length); // its value set by Tomcat from the length
        byte[] date = dateBytes();
        headers.addValue(DATE, 0, DATE.length).setBytes(date, 0, date.length);
        response.setContentLengthLong(length);
    }

    /** The Date header's value as bytes: Tomcat's text of the current second, encoded once a second. */
    private byte[] dateBytes() {
        String now = FastHttpDateFormat.getCurrentDate();
        DateHeader last = lastDate;
        if (!now.equals(last.text())) {
            last = new DateHeader(now, now.getBytes(StandardCharsets.ISO_8859_1));
            lastDate = last;
        }
        return last.bytes();
    }

    private record DateHeader(String text, byte[] bytes) {
    }

    /**
     * The whole body: in one array of its declared length, filled in place; without a declared length, what
     * arrives up to one byte past the limit (the caller refuses a body that long).
     */
    static byte[] readBody(InputStream in, long declared, long maxBytes) throws IOException {
        if (declared < 0) {
            return in.readNBytes((int) Math.min(maxBytes + 1, Integer.MAX_VALUE - 8));
        }
        byte[] body = new byte[(int) declared];
        int read = in.readNBytes(body, 0, body.length);
        return read == body.length ? body : Arrays.copyOf(body, read); // a body cut short reads as malformed
    }

    private void error(Response response, int status, String message) throws IOException {
        byte[] body = json.write(new WireDtos.ErrorBody(message));
        response.setStatus(status);
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
