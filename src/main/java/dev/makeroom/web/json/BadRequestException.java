package dev.makeroom.web.json;

/** A request makeroom cannot act on; answered 400 with the message as {@code Error}. */
public class BadRequestException extends RuntimeException {
    public BadRequestException(String message) {
        super(message);
    }
}
