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
                stream = new CountingStream(super.getInputStream(), maxBytes, getContentLengthLong());
            }
            return stream;
        }
    }

    /**
     * Counts what is read, and keeps the one byte Spring reads ahead to see whether a body is
     * empty: a stream that supports mark is read on directly, one that does not is wrapped in a
     * PushbackInputStream, whose readNBytes gathers the body in 8 KB pieces and copies them all
     * once more (for a 25 MB filter body, twice its size in garbage and a third of its reading time).
     */
    private static final class CountingStream extends ServletInputStream {
        private static final int NONE = -2;
        private static final int FIRST_ARRAY_OF_UNKNOWN_LENGTH = 1 << 16;
        private final ServletInputStream in;
        private final long maxBytes;
        private final long declared; // the Content-Length, or -1 (chunked)
        private long read;
        private boolean marked;  // since mark(): the next byte read is kept
        private int kept = NONE; // that byte, or -1 for the body's end
        private boolean replay;  // after reset(): the kept byte is read again first

        CountingStream(ServletInputStream in, long maxBytes, long declared) {
            this.in = in;
            this.maxBytes = maxBytes;
            this.declared = declared;
        }

        private int count(int n) throws TooLargeException {
            if (n > 0 && (read += n) > maxBytes) {
                throw new TooLargeException(maxBytes);
            }
            return n;
        }

        @Override
        public int read() throws IOException {
            if (replay) {
                replay = false;
                return kept;
            }
            int b = in.read();
            if (b >= 0) {
                count(1);
            }
            if (marked) {
                marked = kept == NONE; // a second byte since the mark: it can no longer be reset to
                kept = marked ? b : NONE;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (replay || marked) { // byte by byte while a mark or a kept byte needs it
                int c = read();
                if (c < 0) {
                    return -1;
                }
                b[off] = (byte) c;
                return 1;
            }
            return count(in.read(b, off, len));
        }

        @Override
        public boolean markSupported() {
            return true;
        }

        /** Remembers one byte whatever {@code readLimit} says: what Spring's empty-body check reads. */
        @Override
        public void mark(int readLimit) {
            marked = true;
            kept = NONE;
            replay = false;
        }

        @Override
        public void reset() throws IOException {
            if (!marked) {
                throw new IOException("no mark to reset to, or more than one byte read since it");
            }
            marked = false;
            replay = kept != NONE;
        }

        /**
         * The body in one array of its declared length (Spring reads a byte[] body so), filled by
         * large reads: InputStream's own way gathers small pieces and copies them all once more.
         * A body of no declared length (Spring asks for all there is) goes into an array that
         * doubles as it fills. Never more than one byte past the limit is allocated; that byte,
         * read, is refused.
         */
        @Override
        public byte[] readNBytes(int len) throws IOException {
            if (len < 0) {
                throw new IllegalArgumentException("len < 0");
            }
            long unread = Math.max(0, maxBytes - read) + (replay && kept >= 0 ? 1 : 0);
            int most = (int) Math.min(len, unread + 1);
            byte[] bytes = new byte[declared >= 0 ? most : Math.min(most, FIRST_ARRAY_OF_UNKNOWN_LENGTH)];
            int filled = 0;
            while (true) {
                for (int n; filled < bytes.length && (n = read(bytes, filled, bytes.length - filled)) > 0; ) {
                    filled += n;
                }
                if (filled < bytes.length || bytes.length == most) {
                    return filled == bytes.length ? bytes : Arrays.copyOf(bytes, filled);
                }
                bytes = Arrays.copyOf(bytes, (int) Math.min(most, 2L * bytes.length));
            }
        }

        @Override
        public boolean isFinished() {
            return !replay && in.isFinished();
        }

        @Override
        public boolean isReady() {
            return replay || in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
