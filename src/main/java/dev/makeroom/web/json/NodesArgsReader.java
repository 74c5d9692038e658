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
    private final byte[] body;
    private final NodeTable known;
    private int lastRow = -1; // the row of the last name read (-1: none, or not a known node)

    /** The node objects of {@code Nodes.items} as raw ranges, and their names in the same order. */
    private record Items(List<RawJson> objects, RequestedNodes names) {
    }

    private NodesArgsReader(JsonParser parser, byte[] body, NodeTable known) {
        this.parser = parser;
        this.body = body;
        this.known = known;
    }

    /** {@code known}: the snapshot's nodes, whose own name strings stand in for the names read. */
    static NodesArgs read(JsonParser parser, byte[] body, NodeTable known) {
        return new NodesArgsReader(parser, body, known).args();
    }

    private NodesArgs args() {
        WireTokens.startBody(parser);
        RawJson pod = null;
        RequestedNodes names = null;
        RawJson metadata = null;
        Items items = null;
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
            String key = parser.currentName();
            JsonToken value = parser.nextToken();
            if (key.equalsIgnoreCase("Pod")) {
                pod = value == JsonToken.VALUE_NULL ? null : raw();
            } else if (key.equalsIgnoreCase("NodeNames")) {
                names = value == JsonToken.VALUE_NULL ? null : names();
            } else if (key.equalsIgnoreCase("Nodes")) {
                metadata = null;
                items = null;
                if (value == JsonToken.START_OBJECT) {
                    while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
                        String listKey = parser.currentName();
                        JsonToken listValue = parser.nextToken();
                        if (listKey.equalsIgnoreCase("metadata")) {
                            metadata = listValue == JsonToken.VALUE_NULL ? null : object("Nodes.metadata");
                        } else if (listKey.equalsIgnoreCase("items")) {
                            items = listValue == JsonToken.VALUE_NULL ? null : items();
                        } else {
                            parser.skipChildren();
                        }
                    }
                } else if (value != JsonToken.VALUE_NULL) {
                    throw new BadRequestException("Nodes must be a v1.NodeList object");
                }
            } else {
                parser.skipChildren();
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
        RequestedNodes.Builder names = new RequestedNodes.Builder(known);
        int index = 0;
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken(), index++) {
            if (t != JsonToken.VALUE_STRING) {
                throw new BadRequestException("NodeNames[" + index + "] must be a node name (a string), found "
                        + WireTokens.kindOf(t));
            }
            int row = currentRow();
            names.add(currentName(row), row);
        }
        return names.build();
    }

    private Items items() {
        if (parser.currentToken() != JsonToken.START_ARRAY) {
            throw new BadRequestException("Nodes.items must be an array of v1.Node objects");
        }
        List<RawJson> items = new ArrayList<>();
        RequestedNodes.Builder names = new RequestedNodes.Builder(known);
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
            String name = null;
            long from = parser.currentTokenLocation().getByteOffset();
            if (t == JsonToken.START_OBJECT) {
                name = valueIn("metadata", JsonToken.START_OBJECT,
                        () -> valueIn("name", JsonToken.VALUE_STRING, () -> currentName(currentRow())));
            } else {
                parser.skipChildren();
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
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
            boolean wanted = parser.currentName().equalsIgnoreCase(key);
            if (parser.nextToken() == kind && wanted) {
                value = read.get();
            } else {
                parser.skipChildren();
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
        return RawJson.current(parser, body);
    }

    private RawJson range(long from, long to, boolean isObject) {
        return RawJson.range(body, from, to, isObject);
    }
}
