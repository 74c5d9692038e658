package dev.makeroom.web;

/** A request makeroom cannot act on; answered 400 with the message as {@code Error}. */
class BadRequestException extends RuntimeException {
    BadRequestException(String message) {
        super(message);
    }
}
