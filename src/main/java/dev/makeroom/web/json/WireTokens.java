package dev.makeroom.web.json;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/** What the streaming body readers ({@link NodesArgsReader}, {@link PreemptArgsReader}) say alike about tokens. */
final class WireTokens {

    private WireTokens() {
    }

    /** Moves {@code parser} onto the request body's opening brace: a body that is not an object is bad input. */
    static void startBody(JsonParser parser) {
        startBody(parser.nextToken());
    }

    /** Checks the request body's first token, {@code first} (null: none), for its opening brace. */
    static void startBody(JsonToken first) {
        if (first == null) {
            throw new BadRequestException("request body is empty");
        }
        if (first == JsonToken.VALUE_NULL) {
            throw new BadRequestException("request body is null, expected a JSON object");
        }
        if (first != JsonToken.START_OBJECT) {
            throw new BadRequestException("request body must be a JSON object");
        }
    }

    /** Checks that nothing follows the request body's closing brace: anything there is bad input. */
    static void endBody(JsonParser parser) {
        if (parser.nextToken() != null) {
            throw new BadRequestException("malformed JSON: trailing content after the request object");
        }
    }

    /** How a token is named in error messages: the kind of value it starts. */
    static String kindOf(JsonToken token) {
        return switch (token) {
            case START_ARRAY -> "ARRAY";
            case START_OBJECT -> "OBJECT";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "NUMBER";
            case VALUE_TRUE, VALUE_FALSE -> "BOOLEAN";
            case VALUE_NULL -> "NULL";
            case VALUE_STRING -> "STRING";
            default -> token.name();
        };
    }
}
