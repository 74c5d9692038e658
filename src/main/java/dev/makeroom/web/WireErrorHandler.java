package dev.makeroom.web;

import dev.makeroom.web.json.BadRequestException;
import dev.makeroom.web.json.WireDtos;
import dev.makeroom.web.json.WireJson;
import jakarta.servlet.http.HttpServletRequest;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.resource.NoResourceFoundException;
import tools.jackson.core.exc.JacksonIOException;

/** Every error on the extender endpoints (and any unmatched request) is JSON: {@code {"Error": "..."}}. */
@RestControllerAdvice
class WireErrorHandler {

    private static final Logger log = LoggerFactory.getLogger(WireErrorHandler.class);

    private final WireJson json;

    WireErrorHandler(WireJson json) {
        this.json = json;
    }

    @ExceptionHandler(BadRequestException.class)
    ResponseEntity<byte[]> badRequest(BadRequestException e) {
        log.debug("bad extender request: {}", e.getMessage());
        return error(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    /** A body Spring could not read, or one a verb reading it as a stream could not (Jackson wraps the failure). */
    @ExceptionHandler({HttpMessageNotReadableException.class, JacksonIOException.class})
    ResponseEntity<byte[]> unreadable(RuntimeException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof RequestSizeLimitFilter.TooLargeException tooLarge) {
                return error(HttpStatus.CONTENT_TOO_LARGE, tooLarge.getMessage());
            }
        }
        return error(HttpStatus.BAD_REQUEST, "request body cannot be read");
    }

    /**
     * A body sent as a form (curl's default type) that is not a valid form: Spring reads a form's body
     * through the request's parameters, and Tomcat throws on bytes it cannot decode.
     */
    @ExceptionHandler(InvalidParameterException.class)
    ResponseEntity<byte[]> unreadableForm(InvalidParameterException e) {
        return error(HttpStatus.BAD_REQUEST, "request body cannot be read: send it as application/json");
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ResponseEntity<byte[]> mediaType(HttpMediaTypeNotSupportedException e) {
        return error(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "send the body as application/json");
    }

    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    ResponseEntity<byte[]> method(HttpRequestMethodNotSupportedException e) {
        return error(HttpStatus.METHOD_NOT_ALLOWED, "use POST");
    }

    @ExceptionHandler(NoResourceFoundException.class)
    ResponseEntity<byte[]> notFound(NoResourceFoundException e) {
        return error(HttpStatus.NOT_FOUND, "no such endpoint: " + e.getResourcePath());
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<byte[]> unexpected(Exception e, HttpServletRequest request) {
        if (e instanceof ErrorResponse response && !response.getStatusCode().is5xxServerError()) {
            // Spring's own request errors (missing parameters, bad headers, ...) keep their status
            return error(HttpStatus.valueOf(response.getStatusCode().value()), response.getBody().getDetail());
        }
        log.error("extender port: {} {} failed unexpectedly", request.getMethod(), request.getRequestURI(), e);
        return error(HttpStatus.INTERNAL_SERVER_ERROR, "internal error: " + e.getClass().getSimpleName());
    }

    private ResponseEntity<byte[]> error(HttpStatus status, String message) {
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON)
                .body(json.write(new WireDtos.ErrorBody(message)));
    }
}
