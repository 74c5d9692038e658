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
import java.util.Arrays;

/**
 * Caps request bodies: one declared too large is answered 413 before it is read; one that grows
 * too large while streaming (no Content-Length) stops being read at the limit and is answered 413
 * by {@link WireErrorHandler}. Bodies are JSON the scheduler builds, so the limit only catches
 * mistakes and abuse.
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
            response.getOutputStream().write(("{\"Error\":\"request body of " + request.getContentLengthLong()
                    + " bytes is larger than the limit of " + maxBytes + " bytes\"}").getBytes(StandardCharsets.UTF_8));
            return;
        }
        chain.doFilter(new Limited(request, maxBytes), response);
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
            return count(in.read(b, off, len));
        }

        /**
         * The body in one array of its declared length (Spring reads a byte[] body so), filled by
         * large reads: InputStream's own way gathers small pieces and copies them all once more.
         * Never more than one byte past the limit is allocated; that byte, read, is refused.
         */
        @Override
        public byte[] readNBytes(int len) throws IOException {
            if (len < 0) {
                throw new IllegalArgumentException("len < 0");
            }
            byte[] bytes = new byte[(int) Math.min(len, Math.max(0, maxBytes - read) + 1)];
            int filled = 0;
            for (int n; filled < bytes.length && (n = read(bytes, filled, bytes.length - filled)) > 0; ) {
                filled += n;
            }
            return filled == bytes.length ? bytes : Arrays.copyOf(bytes, filled);
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
