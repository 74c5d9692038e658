package dev.makeroom.web.json;

import dev.makeroom.core.model.NodeTable;
import dev.makeroom.core.model.RequestedNodes;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The fast read of a filter or prioritize body: one pass over the bytes instead of Jackson's tokens.
 * The scheduler sends one for every pod it places. A body of names (a scheduler that caches nodes,
 * the usual case) is read without a parser, a symbol table or a String per name: each name is looked
 * up in the node table from its bytes. A body of full Node objects (a scheduler that does not cache
 * nodes sends every node, some 25 MB at 5,000 nodes) is read without hashing every field name of
 * every node only to skip it.
 *
 * <p>Design: a recursive descent over the body that accepts only what {@link NodesArgsReader} with
 * {@link WireJson}'s settings accepts, and gives up on everything else. It validates as it goes —
 * JSON's grammar, JSON's four whitespace bytes, well-formed UTF-8, no raw control characters, no
 * duplicate key in any object (WireJson rejects them; keys are compared as the strings their escapes
 * stand for, as the managed fields' {@code "k:{\"type\":\"Ready\"}"} need) — and it also gives up on
 * what it could judge but need not: a key with a byte beyond ASCII, or with an escape where keys are
 * matched to names (Go and Jackson fold some characters in ways ASCII folding does not), a node name
 * (in {@code NodeNames} or an object) that is not plain ASCII, a repeated or misshapen {@code metadata}
 * or {@code name} in a node, and nesting, keys or numbers far past anything a Node holds. On giving up
 * it returns null and the body is read by {@link NodesArgsReader}, so every answer to a bad body stays
 * exactly that reader's; the two readers' equal results on every body this one accepts are held by a
 * property test. A large body's items are scanned by two threads ({@link ScanSplit}); those equal,
 * byte for byte, to items of the last large body scanned are recognised instead ({@link SeenNodeObjects}).
 */
final class NodesArgsScanner {

    private static final int MAX_DEPTH = 100;
    private static final int MAX_KEY_BYTES = 1_000;
    private static final int MAX_KEYS_PER_OBJECT = 1_000;
    private static final int MAX_NUMBER_BYTES = 100;
    private static final int MAX_STRING_BYTES = 1 << 20;
    /** A walk along the seen items that missed this often, and more often than it hit, scans on as if unseen. */
    private static final int MISSES_BEFORE_GIVING_UP_ON_SEEN = 32;

    /** Bytes that stand for themselves inside a string: printable ASCII but the quote and the backslash. */
    private static final boolean[] PLAIN = new boolean[256];

    static {
        for (int c = 0x20; c < 0x80; c++) {
            PLAIN[c] = c != '"' && c != '\\';
        }
    }

    /** Thrown to give up; without a stack trace, as it is a way out rather than an error. */
    private static final class GiveUp extends RuntimeException {
        GiveUp() {
            super(null, null, false, false);
        }
    }

    private static final GiveUp GIVE_UP = new GiveUp();

    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    // What the scanner is aimed at: set for each body (a thread keeps one scanner, VerbBuffers), let go after.
    private byte[] body;
    private NodeTable known; // the node objects' names are looked up here
    private NodeTable namesAgainst; // NodeNames' names are looked up here
    private RequestedNodes.Builder reusedNames; // null: NodeNames get a builder of their own
    private ScanSplit split; // null: one thread scans it all
    private SeenNodeObjects seen; // null: none to compare with
    private int pos;

    // The keys of every object still open, as a stack: where each starts and ends in the body, its
    // length in characters and whether it has escapes. Kept, grown, from one body to the next.
    private int[] keyStart = new int[64];
    private int[] keyEnd = new int[64];
    private int[] keyLength = new int[64];
    private boolean[] keyEscaped = new boolean[64];
    private int keys;

    // Where the current node's metadata.name is, set while walking one item; a name's characters, to look up.
    private int nameFrom;
    private int nameTo;
    private char[] nameChars = new char[64];
    private int metadataOpen; // where the current node's metadata object starts

    /** A scanner to aim at bodies one after another ({@link #scan}), by one thread at a time. */
    NodesArgsScanner() {
    }

    /** The body read, or null when it is not one this scanner is sure of: then read it with {@link NodesArgsReader}. */
    static NodesArgs read(byte[] body, NodeTable known) {
        return read(body, known, ScanSplit.VERBS, null);
    }

    /**
     * {@link #read(byte[], NodeTable)} with the items split across threads as {@code split} says,
     * and those of {@code seen} (if not null) recognised rather than scanned.
     */
    static NodesArgs read(byte[] body, NodeTable known, ScanSplit split, SeenNodeObjects seen) {
        return read(body, known, known, split, seen, null);
    }

    /**
     * {@link #read(byte[], NodeTable, ScanSplit, SeenNodeObjects)} with the names of {@code NodeNames}
     * looked up in {@code namesAgainst}, and through a thread's {@code reused} buffers if not null: the
     * names then read into its builder and lent to the result, valid until the thread reads its next body.
     */
    static NodesArgs read(byte[] body, NodeTable objectsAgainst, NodeTable namesAgainst, ScanSplit split,
                          SeenNodeObjects seen, VerbBuffers reused) {
        NodesArgsScanner scanner = reused == null ? new NodesArgsScanner() : reused.scanner;
        return scanner.scan(body, objectsAgainst, namesAgainst, split, seen, reused == null ? null : reused.names);
    }

    private NodesArgs scan(byte[] body, NodeTable objectsAgainst, NodeTable namesAgainst, ScanSplit split,
                           SeenNodeObjects seen, RequestedNodes.Builder reusedNames) {
        aim(body, objectsAgainst, namesAgainst, 0);
        this.split = split;
        this.seen = seen;
        this.reusedNames = reusedNames;
        try {
            return args();
        } catch (GiveUp e) {
            return null;
        } finally {
            aim(null, null, null, 0); // a kept scanner holds no body or snapshot past its call
            this.split = null;
            this.seen = null;
            this.reusedNames = null;
        }
    }

    private void aim(byte[] body, NodeTable known, NodeTable namesAgainst, int from) {
        this.body = body;
        this.known = known;
        this.namesAgainst = namesAgainst;
        this.pos = from;
        this.keys = 0;
    }

    /**
     * The items of an array from {@code from} (an item's start) through its closing bracket, as the
     * scan of the whole body reads them from there; null if it gives up or {@code stop} says so.
     */
    static ScanSplit.ItemRun itemsFrom(byte[] body, NodeTable known, int from, BooleanSupplier stop) {
        NodesArgsScanner scanner = new NodesArgsScanner();
        scanner.aim(body, known, known, from);
        List<RawJson> items = new ArrayList<>();
        RequestedNodes.Builder names = new RequestedNodes.Builder(known);
        try {
            do {
                if (stop.getAsBoolean()) {
                    return null;
                }
                scanner.item(items, names);
            } while (scanner.nextElement());
        } catch (GiveUp e) {
            return null;
        }
        return new ScanSplit.ItemRun(items, names.build(), scanner.pos);
    }

    private NodesArgs args() {
        skipWhitespace();
        require(at(pos) == '{');
        RawJson pod = null;
        RawJson metadata = null;
        List<RawJson> items = null;
        RequestedNodes names = null;
        RequestedNodes nodeNames = null;
        int base = enterObject(1);
        while (nextKey(base)) {
            if (keyIs("pod")) {
                pod = rawOrNull(1);
            } else if (keyIs("nodenames")) {
                if (at(pos) == '[') {
                    nodeNames = nodeNames();
                } else {
                    requireNull(); // anything else is an error, worded by the Jackson reader
                }
            } else if (keyIs("nodes")) {
                metadata = null;
                items = null;
                if (at(pos) == '{') {
                    int listBase = enterObject(2);
                    while (nextKey(listBase)) {
                        if (keyIs("metadata")) {
                            require(at(pos) == '{' || at(pos) == 'n');
                            metadata = rawOrNull(2);
                        } else if (keyIs("items")) {
                            items = null;
                            if (at(pos) == '[') {
                                RequestedNodes.Builder itemNames = new RequestedNodes.Builder(known);
                                items = items(itemNames);
                                names = itemNames.build();
                            } else {
                                requireNull();
                            }
                        } else {
                            value(2);
                        }
                    }
                } else {
                    requireNull();
                }
            } else {
                value(1);
            }
        }
        skipWhitespace();
        require(pos == body.length);
        if (nodeNames != null) { // names win over objects, as with the Jackson reader
            return new NodesArgs(pod, nodeNames, null, null);
        }
        require(items != null);
        return new NodesArgs(pod, names, metadata, items);
    }

    /**
     * The array of node names at {@code pos}, each looked up in {@code namesAgainst} from its bytes (a
     * known name becomes the table's own String; the scheduler lists its nodes in one order, so the row
     * after the last one found is tried first). Gives up on anything but strings of plain ASCII, which
     * every node name is.
     */
    private RequestedNodes nodeNames() {
        RequestedNodes.Builder names = reusedNames == null ? new RequestedNodes.Builder(namesAgainst)
                : reusedNames.reset(namesAgainst);
        pos++;
        skipWhitespace();
        if (at(pos) == ']') {
            pos++;
        } else {
            int row = -1;
            do {
                require(at(pos) == '"');
                int from = pos + 1;
                int length = plainAsciiString() - from;
                row = namesAgainst.indexOfNext(asciiChars(from, length), 0, length, row);
                names.add(row < 0 ? new String(body, from, length, StandardCharsets.US_ASCII) : namesAgainst.name(row),
                        row);
            } while (nextElement());
        }
        return reusedNames == null ? names.build() : names.lend();
    }

    /** The value here as {@link NodesArgsReader} keeps it: null, a range of an object or array, or a scalar's mark. */
    private RawJson rawOrNull(int depth) {
        int from = pos;
        byte first = at(pos);
        value(depth);
        if (first == 'n') {
            return null;
        }
        if (first != '{' && first != '[') {
            return new RawJson(body, 0, 0, false);
        }
        return new RawJson(body, from, pos, first == '{');
    }

    private List<RawJson> items(RequestedNodes.Builder names) {
        List<RawJson> items = new ArrayList<>();
        pos++;
        skipWhitespace();
        if (at(pos) == ']') {
            pos++;
            return items;
        }
        if (seen != null && !itemsLikeSeen(items, names)) {
            return items;
        }
        int first = pos;
        item(items, names);
        if (!nextElement()) {
            return items;
        }
        ScanSplit.Half half = split == null ? null : split.start(body, known, first, metadataOpen, pos);
        try {
            while (true) {
                if (half != null && pos >= half.from()) {
                    ScanSplit.ItemRun rest = pos == half.from() ? half.take() : null; // past it: a wrong guess
                    if (rest != null) {
                        items.addAll(rest.items());
                        for (int i = 0; i < rest.names().size(); i++) {
                            names.add(rest.names().name(i), rest.names().row(i));
                        }
                        pos = rest.end();
                        return items;
                    }
                    half.cancel();
                    half = null;
                }
                item(items, names);
                if (!nextElement()) {
                    return items;
                }
            }
        } finally {
            if (half != null) {
                half.cancel(); // given up, or the array ended before the guess
            }
        }
    }

    /**
     * The items from {@code pos}, each compared with the seen item expected there and scanned only
     * if it differs; after a scanned one the walk goes on from the seen item of that name, so a node
     * that changed, joined or left costs one item's scan. False past the array's closing bracket;
     * true if the walk gave up (it missed too often: not the body it was seen in), at an item's start.
     */
    private boolean itemsLikeSeen(List<RawJson> items, RequestedNodes.Builder names) {
        int expected = 0;
        int hits = 0;
        int misses = 0;
        do {
            if (expected < seen.size() && seen.sameAt(expected, body, pos)) {
                int row = seen.row(expected, known);
                items.add(new RawJson(body, pos, pos + seen.length(expected), true));
                names.add(row < 0 ? seen.name(expected) : known.name(row), row);
                pos += seen.length(expected);
                expected++;
                hits++;
            } else if (misses >= MISSES_BEFORE_GIVING_UP_ON_SEEN && misses > hits) {
                seen.countRecognised(hits);
                return true;
            } else {
                item(items, names);
                int at = seen.indexOf(nameChars, nameTo - nameFrom);
                expected = at >= 0 ? at + 1 : expected + 1;
                misses++;
            }
        } while (nextElement());
        seen.countRecognised(hits);
        return false;
    }

    /** The node object at {@code pos}: its range to {@code items}, its name and row to {@code names}. */
    private void item(List<RawJson> items, RequestedNodes.Builder names) {
        require(at(pos) == '{');
        int from = pos;
        node(4);
        items.add(new RawJson(body, from, pos, true));
        int length = nameTo - nameFrom;
        asciiChars(nameFrom, length);
        int row = known.indexOf(nameChars, 0, length);
        names.add(row < 0 ? new String(body, nameFrom, length, StandardCharsets.US_ASCII) : known.name(row), row);
    }

    /** The ASCII bytes {@code from..from+length} of the body as characters, in {@code nameChars}. */
    private char[] asciiChars(int from, int length) {
        if (nameChars.length < length) {
            nameChars = new char[Math.max(length, nameChars.length * 2)];
        }
        for (int k = 0; k < length; k++) {
            nameChars[k] = (char) body[from + k]; // ASCII: each byte is its char
        }
        return nameChars;
    }

    /** One node object, finding its single {@code metadata.name}. */
    private void node(int depth) {
        nameFrom = -1;
        boolean metadataSeen = false;
        int base = enterObject(depth);
        while (nextKey(base)) {
            if (keyIs("metadata")) {
                require(!metadataSeen && at(pos) == '{');
                metadataSeen = true;
                metadataOpen = pos;
                int metadataBase = enterObject(depth + 1);
                while (nextKey(metadataBase)) {
                    if (keyIs("name")) {
                        require(nameFrom < 0 && at(pos) == '"');
                        nameFrom = pos + 1;
                        nameTo = plainAsciiString();
                    } else {
                        value(depth + 1);
                    }
                }
            } else {
                value(depth);
            }
        }
        require(nameFrom >= 0 && nameTo > nameFrom);
    }

    private void value(int depth) {
        switch (at(pos)) {
            case '{' -> {
                int base = enterObject(depth + 1);
                while (nextKey(base)) {
                    value(depth + 1);
                }
            }
            case '[' -> array(depth + 1);
            case '"' -> string();
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            default -> number();
        }
    }

    private void requireNull() {
        require(at(pos) == 'n');
        literal("null");
    }

    private void array(int depth) {
        require(depth <= MAX_DEPTH);
        pos++;
        skipWhitespace();
        if (at(pos) == ']') {
            pos++;
            return;
        }
        do {
            value(depth);
        } while (nextElement());
    }

    /** After an array's element: true past a comma (on the next element), false past the closing bracket. */
    private boolean nextElement() {
        skipWhitespace();
        byte c = at(pos++);
        if (c == ']') {
            return false;
        }
        require(c == ',');
        skipWhitespace();
        return true;
    }

    /** Steps into the object at {@code pos}; the keys read in it are counted from the returned base. */
    private int enterObject(int depth) {
        require(depth <= MAX_DEPTH);
        pos++;
        return keys;
    }

    /**
     * Before the object's next key or its end: true with the key read and its colon passed (on the
     * value), false past the closing brace with the object's keys dropped.
     */
    private boolean nextKey(int base) {
        skipWhitespace();
        byte c = at(pos);
        if (c == '}') {
            pos++;
            keys = base;
            return false;
        }
        if (keys > base) {
            require(c == ',');
            pos++;
            skipWhitespace();
        }
        require(at(pos) == '"' && keys - base < MAX_KEYS_PER_OBJECT);
        key(base);
        skipWhitespace();
        require(at(pos) == ':');
        pos++;
        skipWhitespace();
        return true;
    }

    /**
     * Reads a key of ASCII characters, escapes allowed, and pushes it, giving up if this object has
     * it already. Keys are compared as the strings they decode to (Jackson's duplicate check does so):
     * byte for byte when neither has an escape, which is nearly always.
     */
    private void key(int base) {
        int from = pos + 1;
        int i = plainRun(from);
        int length = i - from;
        boolean escaped = at(i) == '\\';
        if (escaped) { // rare: the managed fields' keys, such as k:{"type":"Ready"}
            for (byte c = at(i); c != '"'; c = at(i), length++) {
                if (c == '\\') {
                    i = escape(i);
                } else {
                    require(PLAIN[c & 0xFF]);
                    i++;
                }
            }
        }
        require(at(i) == '"' && length <= MAX_KEY_BYTES);
        for (int k = base; k < keys; k++) {
            require(keyLength[k] != length || !sameKey(k, from, i, escaped));
        }
        if (keys == keyStart.length) {
            keyStart = Arrays.copyOf(keyStart, keys * 2);
            keyEnd = Arrays.copyOf(keyEnd, keys * 2);
            keyLength = Arrays.copyOf(keyLength, keys * 2);
            keyEscaped = Arrays.copyOf(keyEscaped, keys * 2);
        }
        keyStart[keys] = from;
        keyEnd[keys] = i;
        keyLength[keys] = length;
        keyEscaped[keys] = escaped;
        keys++;
        pos = i + 1;
    }

    /** Whether key {@code k} and the key at {@code from..to} are one string; both are of one length in characters. */
    private boolean sameKey(int k, int from, int to, boolean escaped) {
        if (!escaped && !keyEscaped[k]) {
            for (int a = keyStart[k], b = from; b < to; a++, b++) {
                if (body[a] != body[b]) {
                    return false;
                }
            }
            return true;
        }
        return decoded(keyStart[k], keyEnd[k]).equals(decoded(from, to));
    }

    /** A key's characters (ASCII and escapes only, as {@link #key} let through). */
    private String decoded(int from, int to) {
        StringBuilder text = new StringBuilder(to - from);
        for (int i = from; i < to; ) {
            if (body[i] == '\\') {
                text.append(unescape(i));
                i = escape(i);
            } else {
                text.append((char) body[i++]);
            }
        }
        return text.toString();
    }

    /** The character the escape at {@code i} stands for; {@link #escape} checks it. */
    private char unescape(int i) {
        return switch (at(i + 1)) {
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'u' -> (char) hex4(i + 2);
            default -> (char) at(i + 1);
        };
    }

    /**
     * Whether the last key read is {@code lower} in any ASCII case ({@code lower}: lower-case letters
     * only). Asked only where names are matched; there a key with an escape makes the scanner give up.
     */
    private boolean keyIs(String lower) {
        require(!keyEscaped[keys - 1]); // "\u004eodes" is Nodes to Jackson: not matched in bytes
        int from = keyStart[keys - 1];
        if (keyLength[keys - 1] != lower.length()) {
            return false;
        }
        for (int k = 0; k < lower.length(); k++) {
            if ((body[from + k] | 0x20) != lower.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private void string() {
        int from = pos + 1;
        int i = plainRun(from);
        for (int c = at(i) & 0xFF; c != '"'; c = at(i) & 0xFF) {
            i = plainRun(c == '\\' ? escape(i) : utf8(i, c));
        }
        require(i - from <= MAX_STRING_BYTES);
        pos = i + 1;
    }

    /**
     * The first index from {@code i} of a byte that is not plain (or the body's end), eight bytes at
     * a time: most of a node's bytes are plain strings (image names and digests). In each word, the
     * bytes that are a quote, a backslash, below 0x20 or above 0x7F are flagged at once (the classic
     * tests for a zero byte and for a byte below n); a flag above a true one may be false, the lowest
     * never is, so the lowest flag is the answer.
     */
    private int plainRun(int i) {
        int last = body.length - Long.BYTES;
        for (; i <= last; i += Long.BYTES) {
            long word = (long) WORDS.get(body, i);
            long quote = word ^ 0x2222222222222222L;
            long backslash = word ^ 0x5C5C5C5C5C5C5C5CL;
            long flags = ((quote - 0x0101010101010101L) & ~quote
                    | (backslash - 0x0101010101010101L) & ~backslash
                    | (word - 0x2020202020202020L) & ~word
                    | word) & 0x8080808080808080L;
            if (flags != 0) {
                return i + (Long.numberOfTrailingZeros(flags) >>> 3);
            }
        }
        while (i < body.length && PLAIN[body[i] & 0xFF]) {
            i++;
        }
        return i;
    }

    /** A string of plain ASCII, no escapes; returns where its closing quote is, with {@code pos} past it. */
    private int plainAsciiString() {
        int i = plainRun(pos + 1);
        require(at(i) == '"' && i - pos <= MAX_KEY_BYTES);
        pos = i + 1;
        return i;
    }

    /** The escape at {@code i} (a backslash); returns the index after it. */
    private int escape(int i) {
        byte c = at(i + 1);
        switch (c) {
            case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
                return i + 2;
            }
            case 'u' -> {
                hex4(i + 2);
                return i + 6;
            }
            default -> throw GIVE_UP;
        }
    }

    /** The four hex digits at {@code i} as a number. */
    private int hex4(int i) {
        int value = 0;
        for (int k = i; k < i + 4; k++) {
            int digit = Character.digit(at(k), 16);
            require(digit >= 0);
            value = value * 16 + digit;
        }
        return value;
    }

    /**
     * The character starting with byte {@code lead} at {@code i}, which must be well-formed UTF-8
     * (no overlong forms, surrogates or code points past U+10FFFF); returns the index after it.
     */
    private int utf8(int i, int lead) {
        int continuation;
        int low = 0x80;
        int high = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            continuation = 1;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            continuation = 2;
            low = lead == 0xE0 ? 0xA0 : 0x80;
            high = lead == 0xED ? 0x9F : 0xBF;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            continuation = 3;
            low = lead == 0xF0 ? 0x90 : 0x80;
            high = lead == 0xF4 ? 0x8F : 0xBF;
        } else {
            throw GIVE_UP; // a control character, a stray continuation byte or an invalid lead
        }
        int second = at(i + 1) & 0xFF;
        require(second >= low && second <= high);
        for (int k = i + 2; k <= i + continuation; k++) {
            int next = at(k) & 0xFF;
            require(next >= 0x80 && next <= 0xBF);
        }
        return i + continuation + 1;
    }

    private void literal(String word) {
        for (int k = 0; k < word.length(); k++) {
            require(at(pos + k) == word.charAt(k));
        }
        pos += word.length();
        require(!isLetterOrDigit(at(pos)));
    }

    /** A number as JSON writes it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
    private void number() {
        int from = pos;
        if (at(pos) == '-') {
            pos++;
        }
        if (at(pos) == '0') {
            pos++;
        } else {
            require(isDigit(at(pos)));
            digits();
        }
        if (at(pos) == '.') {
            pos++;
            require(isDigit(at(pos)));
            digits();
        }
        if (at(pos) == 'e' || at(pos) == 'E') {
            pos++;
            if (at(pos) == '+' || at(pos) == '-') {
                pos++;
            }
            require(isDigit(at(pos)));
            digits();
        }
        require(pos - from <= MAX_NUMBER_BYTES && !isLetterOrDigit(at(pos)) && at(pos) != '.');
    }

    private void digits() {
        while (isDigit(at(pos))) {
            pos++;
        }
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isLetterOrDigit(byte c) {
        return isDigit(c) || (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
    }

    private void skipWhitespace() {
        for (byte c = at(pos); c == ' ' || c == '\n' || c == '\r' || c == '\t'; c = at(++pos)) {
            // JSON's whitespace only: Jackson refuses any other byte here
        }
    }

    /** The byte at {@code i}, or 0 past the end: no rule accepts a 0 outside a string, nor inside one. */
    private byte at(int i) {
        return i < body.length ? body[i] : 0;
    }

    private static void require(boolean condition) {
        if (!condition) {
            throw GIVE_UP;
        }
    }
}
