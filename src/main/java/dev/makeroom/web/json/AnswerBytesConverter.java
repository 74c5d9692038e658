package dev.makeroom.web.json;

import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.AbstractHttpMessageConverter;
import org.springframework.http.converter.HttpMessageNotReadableException;

import java.io.IOException;

/** Writes an {@link AnswerBytes} as the JSON body it is, with its length; never reads one. */
public final class AnswerBytesConverter extends AbstractHttpMessageConverter<AnswerBytes> {

    public AnswerBytesConverter() {
        super(MediaType.APPLICATION_JSON);
    }

    @Override
    protected boolean supports(Class<?> type) {
        return AnswerBytes.class == type;
    }

    @Override
    protected boolean canRead(MediaType mediaType) {
        return false;
    }

    @Override
    protected Long getContentLength(AnswerBytes answer, MediaType contentType) {
        return answer.length();
    }

    @Override
    protected AnswerBytes readInternal(Class<? extends AnswerBytes> type, HttpInputMessage input) {
        throw new HttpMessageNotReadableException("answers are only written", input);
    }

    @Override
    protected void writeInternal(AnswerBytes answer, HttpOutputMessage output) throws IOException {
        answer.writeTo(output.getBody());
    }
}
