package dev.makeroom.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Caps request bodies on the paths Spring serves (preempt, read as a stream): one declared too large is
 * answered 413 before it is read; one that grows too large while streaming (no Content-Length) stops
 * being read at the limit and is answered 413 by {@link WireErrorHandler}. filter and prioritize apply the
 * same limit themselves ({@link NodeVerbValve}). Bodies are JSON the scheduler builds, so the limit only
 * catches mistakes and abuse.
 */
class RequestSizeLimitFilter extends OncePerRequestFilter {

    private final long maxBytes;

    RequestSizeLimitFilter(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > maxBytes) {
            response.setStatus(HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE);
            response.setContentType("application/json");
            response.getOutputStream().write(("{\"Error\":\"" + declaredTooLarge(request.getContentLengthLong(), maxBytes)
                    + "\"}").getBytes(StandardCharsets.UTF_8));
            return;
        }
        chain.doFilter(new Limited(request, maxBytes), response);
    }

    /** Why a body whose declared length is past the limit is refused unread. */
    static String declaredTooLarge(long declared, long maxBytes) {
        return "request body of " + declared + " bytes is larger than the limit of " + maxBytes + " bytes";
    }

    /** Thrown when a streamed body passes the limit. */
    static final class TooLargeException extends IOException {
        TooLargeException(long maxBytes) {
            super("request body is larger than the limit of " + maxBytes + " bytes");
        }
    }

    private static final class Limited extends HttpServletRequestWrapper {
        private final long maxBytes;
        private ServletInputStream stream;

        Limited(HttpServletRequest request, long maxBytes) {
            super(request);
            this.maxBytes = maxBytes;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new CountingStream(super.getInputStream(), maxBytes);
            }
            return stream;
        }
    }

    /** Counts what is read, and refuses the first byte past the limit. */
    private static final class CountingStream extends ServletInputStream {
        private final ServletInputStream in;
        private final long maxBytes;
        private long read;

        CountingStream(ServletInputStream in, long maxBytes) {
            this.in = in;
            this.maxBytes = maxBytes;
        }

        private int count(int n) throws TooLargeException {
            if (n > 0 && (read += n) > maxBytes) {
                throw new TooLargeException(maxBytes);
            }
            return n;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return len == 0 ? 0 : count(in.read(b, off, len));
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
