package dev.makeroom.web.json;

import dev.makeroom.core.model.NodeTable;
import dev.makeroom.core.model.RequestedNodes;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Reads a filter or prioritize body in one streaming pass, without a tree: node names are looked up
 * in the node table from the parser's characters (a known node's name becomes the table's own String,
 * with its row), the pod and every node object a raw range of the body (every byte is still tokenised,
 * so malformed JSON is still rejected). A 25 MB body of full node objects costs a scan instead of
 * millions of tree nodes. Keys match case-insensitively, as Go's decoder matches them.
 */
final class NodesArgsReader {

    private final JsonParser parser;
    private final UniqueKeyTokens tokens; // the parser's tokens, every object's keys checked for duplicates
    private final byte[] body;
    private final NodeTable known;
    private final RequestedNodes.Builder reused; // null: the names get arrays of their own
    private int lastRow = -1; // the row of the last name read (-1: none, or not a known node)

    /** The node objects of {@code Nodes.items} as raw ranges, and their names in the same order. */
    private record Items(List<RawJson> objects, RequestedNodes names) {
    }

    private NodesArgsReader(JsonParser parser, UniqueKeyTokens tokens, byte[] body, NodeTable known,
                            RequestedNodes.Builder reused) {
        this.parser = parser;
        this.tokens = tokens;
        this.body = body;
        this.known = known;
        this.reused = reused;
    }

    /** {@code known}: the snapshot's nodes, whose own name strings stand in for the names read. */
    static NodesArgs read(JsonParser parser, byte[] body, NodeTable known) {
        return new NodesArgsReader(parser, new UniqueKeyTokens(parser), body, known, null).args();
    }

    /**
     * As above, through a thread's {@link VerbBuffers}: the {@code NodeNames} read into its builder (reset
     * here, its table {@code known}) and lent to the result, the keys checked by its checker; valid until
     * the thread reads its next body.
     */
    static NodesArgs read(JsonParser parser, byte[] body, NodeTable known, VerbBuffers buffers) {
        return new NodesArgsReader(parser, buffers.keys.on(parser), body, known, buffers.names).args();
    }

    private NodesArgs args() {
        WireTokens.startBody(tokens.next());
        RawJson pod = null;
        RequestedNodes names = null;
        RawJson metadata = null;
        Items items = null;
        while (tokens.next() == JsonToken.PROPERTY_NAME) {
            String key = parser.currentName();
            JsonToken value = tokens.next();
            if (key.equalsIgnoreCase("Pod")) {
                pod = value == JsonToken.VALUE_NULL ? null : raw();
            } else if (key.equalsIgnoreCase("NodeNames")) {
                names = value == JsonToken.VALUE_NULL ? null : names();
            } else if (key.equalsIgnoreCase("Nodes")) {
                metadata = null;
                items = null;
                if (value == JsonToken.START_OBJECT) {
                    while (tokens.next() == JsonToken.PROPERTY_NAME) {
                        String listKey = parser.currentName();
                        JsonToken listValue = tokens.next();
                        if (listKey.equalsIgnoreCase("metadata")) {
                            metadata = listValue == JsonToken.VALUE_NULL ? null : object("Nodes.metadata");
                        } else if (listKey.equalsIgnoreCase("items")) {
                            items = listValue == JsonToken.VALUE_NULL ? null : items();
                        } else {
                            tokens.skip();
                        }
                    }
                } else if (value != JsonToken.VALUE_NULL) {
                    throw new BadRequestException("Nodes must be a v1.NodeList object");
                }
            } else {
                tokens.skip();
            }
        }
        WireTokens.endBody(parser);
        if (names != null) {
            return new NodesArgs(pod, names, null, null);
        }
        if (items == null) {
            throw new BadRequestException("neither NodeNames nor Nodes.items is given");
        }
        return new NodesArgs(pod, items.names(), metadata, items.objects());
    }

    private RequestedNodes names() {
        if (parser.currentToken() != JsonToken.START_ARRAY) {
            throw new BadRequestException("NodeNames must be an array of node names");
        }
        RequestedNodes.Builder names = reused == null ? new RequestedNodes.Builder(known) : reused.reset(known);
        int index = 0;
        for (JsonToken t = tokens.next(); t != JsonToken.END_ARRAY; t = tokens.next(), index++) {
            if (t != JsonToken.VALUE_STRING) {
                throw new BadRequestException("NodeNames[" + index + "] must be a node name (a string), found "
                        + WireTokens.kindOf(t));
            }
            int row = currentRow();
            names.add(currentName(row), row);
        }
        return reused == null ? names.build() : names.lend();
    }

    private Items items() {
        if (parser.currentToken() != JsonToken.START_ARRAY) {
            throw new BadRequestException("Nodes.items must be an array of v1.Node objects");
        }
        List<RawJson> items = new ArrayList<>();
        RequestedNodes.Builder names = new RequestedNodes.Builder(known);
        for (JsonToken t = tokens.next(); t != JsonToken.END_ARRAY; t = tokens.next()) {
            String name = null;
            long from = parser.currentTokenLocation().getByteOffset();
            if (t == JsonToken.START_OBJECT) {
                name = valueIn("metadata", JsonToken.START_OBJECT,
                        () -> valueIn("name", JsonToken.VALUE_STRING, () -> currentName(currentRow())));
            } else {
                tokens.skip();
            }
            if (name == null || name.isEmpty()) {
                throw new BadRequestException("Nodes.items[" + items.size() + "] has no metadata.name");
            }
            items.add(range(from, parser.currentLocation().getByteOffset(), true));
            names.add(name, known.indexOf(name)); // a known name is the table's String: found by identity
        }
        return new Items(items, names.build());
    }

    /**
     * Walks the current object to its end: the value under {@code key} (matched in any case), if it
     * is of the given kind, is read by {@code read}; everything else is skipped.
     */
    private String valueIn(String key, JsonToken kind, Supplier<String> read) {
        String value = null;
        while (tokens.next() == JsonToken.PROPERTY_NAME) {
            boolean wanted = parser.currentName().equalsIgnoreCase(key);
            if (tokens.next() == kind && wanted) {
                value = read.get();
            } else {
                tokens.skip();
            }
        }
        return value;
    }

    /** The row of the node named by the current string, or -1: read from the parser's characters, no String made. */
    private int currentRow() {
        int row = known.indexOfNext(parser.getStringCharacters(), parser.getStringOffset(), parser.getStringLength(),
                lastRow);
        lastRow = row;
        return row;
    }

    /** The current string: the table's own String of the node at {@code row}, a new one for an unknown name. */
    private String currentName(int row) {
        return row < 0 ? parser.getString() : known.name(row);
    }

    private RawJson object(String what) {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            throw new BadRequestException(what + " must be a JSON object");
        }
        return raw();
    }

    /** The current value as a range of the body; the parser is left on its last token. */
    private RawJson raw() {
        JsonToken token = parser.currentToken();
        long from = parser.currentTokenLocation().getByteOffset();
        tokens.skip();
        return token.isStructStart() ? range(from, parser.currentLocation().getByteOffset(), token == JsonToken.START_OBJECT)
                : new RawJson(body, 0, 0, false);
    }

    private RawJson range(long from, long to, boolean isObject) {
        return RawJson.range(body, from, to, isObject);
    }
}
