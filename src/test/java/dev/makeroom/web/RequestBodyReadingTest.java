package dev.makeroom.web;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How bodies are read: filter and prioritize read theirs whole ({@link NodeVerbValve#readBody}), in large
 * reads into one array of the declared length; preempt reads its as a stream behind
 * {@link RequestSizeLimitFilter}, which refuses the first byte past the limit.
 */
class RequestBodyReadingTest {

    private static final int LIMIT = 1 << 20;

    @Test
    void a_body_of_declared_length_is_read_whole_in_large_reads_into_one_array_of_that_length() throws Exception {
        byte[] body = randomBytes(300_000);
        RecordingBody recording = new RecordingBody(body);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        NodeVerbValve.readBody(new RecordingBody(body), body.length, LIMIT); // its classes loaded
        long before = threads.getCurrentThreadAllocatedBytes();

        byte[] read = NodeVerbValve.readBody(recording, body.length, LIMIT);

        assertThat(threads.getCurrentThreadAllocatedBytes() - before).as("bytes allocated reading it")
                .isLessThan(body.length + 4096L);
        assertThat(read).isEqualTo(body);
        // InputStream's own readNBytes(int) asks for 8 KB at most and copies the pieces once more
        assertThat(recording.largestAsk).isGreaterThan(body.length / 2);
    }

    @Test
    void a_body_of_no_declared_length_is_read_whole() throws Exception {
        byte[] body = randomBytes(LIMIT - 5);

        assertThat(NodeVerbValve.readBody(new RecordingBody(body), -1, LIMIT)).isEqualTo(body);
    }

    @Test
    void a_body_of_exactly_the_limit_is_read_and_one_byte_more_is_read_past_it_to_be_refused() throws Exception {
        assertThat(NodeVerbValve.readBody(new RecordingBody(randomBytes(LIMIT)), -1, LIMIT)).hasSize(LIMIT);
        assertThat(NodeVerbValve.readBody(new RecordingBody(randomBytes(LIMIT + 100)), -1, LIMIT)).hasSize(LIMIT + 1);
    }

    @Test
    void a_body_shorter_than_declared_is_what_arrived() throws Exception {
        byte[] body = randomBytes(100);

        assertThat(NodeVerbValve.readBody(new RecordingBody(body), 150, LIMIT)).isEqualTo(body);
    }

    @Test
    void a_streamed_body_one_byte_past_the_limit_is_refused_behind_the_filter() throws Exception {
        InputStream stream = throughLimit(new RecordingBody(randomBytes(LIMIT + 1)), -1).getInputStream();

        assertThatThrownBy(stream::readAllBytes).isInstanceOf(RequestSizeLimitFilter.TooLargeException.class);
    }

    @Test
    void a_streamed_body_of_exactly_the_limit_passes_the_filter() throws Exception {
        byte[] body = randomBytes(LIMIT);

        assertThat(throughLimit(new RecordingBody(body), body.length).getInputStream().readAllBytes()).isEqualTo(body);
    }

    /** The request as preempt sees it: {@code body} behind the size limit's filter. */
    private static HttpServletRequest throughLimit(RecordingBody body, long contentLength) throws Exception {
        MockHttpServletRequest raw = new MockHttpServletRequest("POST", "/scheduler/preempt");
        raw.setContentType("application/json");
        HttpServletRequest sent = new HttpServletRequestWrapper(raw) {
            @Override
            public ServletInputStream getInputStream() {
                return body;
            }

            @Override
            public int getContentLength() {
                return (int) contentLength;
            }

            @Override
            public long getContentLengthLong() {
                return contentLength;
            }
        };
        HttpServletRequest[] passed = new HttpServletRequest[1];
        new RequestSizeLimitFilter(LIMIT).doFilter(sent, new MockHttpServletResponse(),
                (request, response) -> passed[0] = (HttpServletRequest) request);
        return passed[0];
    }

    private static byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        new Random(length).nextBytes(bytes);
        return bytes;
    }

    /** A body as Tomcat hands it out, remembering the largest read asked of it. */
    private static final class RecordingBody extends ServletInputStream {
        private final ByteArrayInputStream bytes;
        int largestAsk;

        RecordingBody(byte[] body) {
            this.bytes = new ByteArrayInputStream(body);
        }

        @Override
        public int read() {
            return bytes.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
            largestAsk = Math.max(largestAsk, len);
            return bytes.read(b, off, len);
        }

        @Override
        public boolean isFinished() {
            return bytes.available() == 0;
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
            throw new UnsupportedOperationException();
        }
    }
}
