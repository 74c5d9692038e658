package dev.makeroom.web;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import org.junit.jupiter.api.Test;
import org.springframework.core.MethodParameter;
import org.springframework.http.converter.ByteArrayHttpMessageConverter;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.mvc.method.annotation.RequestResponseBodyMethodProcessor;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How the filter and prioritize verbs' bodies are read once they passed {@link RequestSizeLimitFilter}:
 * by Spring's own {@code @RequestBody} resolver, in large reads into one array, whatever Spring's
 * check for an empty body reads ahead. (The preempt verb reads its body as a stream instead:
 * {@link dev.makeroom.web.json.PreemptArgsReaderTest}.)
 */
class RequestBodyReadingTest {

    private static final int LIMIT = 1 << 20;

    @Test
    void spring_reads_the_verbs_body_whole_in_large_reads_not_in_small_pieces() throws Exception {
        byte[] body = randomBytes(300_000);
        RecordingBody recording = new RecordingBody(body);

        byte[] read = (byte[]) springReads(throughLimit(recording, body.length));

        assertThat(read).isEqualTo(body);
        // InputStream's own readNBytes, which a stream without mark support gets, asks for 8 KB at most
        assertThat(recording.largestAsk).isGreaterThan(body.length / 2);
    }

    @Test
    void a_body_of_no_declared_length_is_read_in_arrays_that_grow_with_it_not_one_of_the_limits_size() throws Exception {
        byte[] body = randomBytes(3_000);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        springReads(throughLimit(new RecordingBody(body), -1, 64 << 20)); // Spring's classes loaded, its caches filled
        HttpServletRequest request = throughLimit(new RecordingBody(body), -1, 64 << 20);
        long before = threads.getCurrentThreadAllocatedBytes();

        byte[] read = (byte[]) springReads(request);

        assertThat(read).isEqualTo(body);
        assertThat(threads.getCurrentThreadAllocatedBytes() - before).as("bytes allocated reading it")
                .isLessThan(1 << 20);
    }

    @Test
    void a_body_of_no_declared_length_larger_than_the_first_array_is_read_whole() throws Exception {
        byte[] body = randomBytes(LIMIT - 5);

        assertThat((byte[]) springReads(throughLimit(new RecordingBody(body), -1))).isEqualTo(body);
    }

    @Test
    void an_empty_body_is_no_body() throws Exception {
        assertThat(springReads(throughLimit(new RecordingBody(new byte[0]), 0))).isNull();
    }

    @Test
    void a_body_of_exactly_the_limit_is_read_although_its_first_byte_was_read_twice() throws Exception {
        byte[] body = randomBytes(LIMIT);

        assertThat((byte[]) springReads(throughLimit(new RecordingBody(body), body.length))).isEqualTo(body);
    }

    @Test
    void a_streamed_body_one_byte_past_the_limit_is_refused_after_the_look_ahead() throws Exception {
        InputStream stream = throughLimit(new RecordingBody(randomBytes(LIMIT + 1)), -1).getInputStream();
        stream.mark(1);
        stream.read();
        stream.reset();

        assertThatThrownBy(() -> stream.readNBytes(Integer.MAX_VALUE))
                .isInstanceOf(RequestSizeLimitFilter.TooLargeException.class);
    }

    @Test
    void a_mark_gives_back_the_one_byte_read_after_it_and_no_more() throws Exception {
        InputStream stream = throughLimit(new RecordingBody(new byte[] {7, 8, 9}), 3).getInputStream();

        assertThat(stream.markSupported()).isTrue();
        stream.mark(1);
        assertThat(stream.read()).isEqualTo(7);
        stream.reset();
        assertThat(stream.readNBytes(3)).containsExactly(7, 8, 9);

        InputStream again = throughLimit(new RecordingBody(new byte[] {7, 8, 9}), 3).getInputStream();
        again.mark(1);
        again.read();
        again.read();
        assertThatThrownBy(again::reset).isInstanceOf(IOException.class).hasMessageContaining("more than one byte");
    }

    private static Object springReads(HttpServletRequest request) throws Exception {
        RequestResponseBodyMethodProcessor resolver =
                new RequestResponseBodyMethodProcessor(List.of(new ByteArrayHttpMessageConverter()));
        MethodParameter filterBody = new MethodParameter(ExtenderController.class.getDeclaredMethod("filter", byte[].class), 0);
        return resolver.resolveArgument(filterBody, new ModelAndViewContainer(), new ServletWebRequest(request), null);
    }

    /** The request as the verbs see it: {@code body} behind the size limit's filter. */
    private static HttpServletRequest throughLimit(RecordingBody body, long contentLength) throws Exception {
        return throughLimit(body, contentLength, LIMIT);
    }

    private static HttpServletRequest throughLimit(RecordingBody body, long contentLength, long limit) throws Exception {
        MockHttpServletRequest raw = new MockHttpServletRequest("POST", "/scheduler/filter");
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
        new RequestSizeLimitFilter(limit).doFilter(sent, new MockHttpServletResponse(),
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
