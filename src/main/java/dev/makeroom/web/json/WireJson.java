package dev.makeroom.web.json;

import dev.makeroom.core.model.NodeTable;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.exc.JacksonIOException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicReference;

/**
 * makeroom's own JSON mapper for the wire protocol: keys case-insensitive (Go decodes them so),
 * unknown fields ignored, trailing garbage and duplicate keys rejected, and every failure turned
 * into a {@link BadRequestException} that says where the body is wrong.
 */
@Component
public class WireJson {

    private final JsonMapper mapper = JsonMapper.builder()
            .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(DeserializationFeature.UNWRAP_SINGLE_VALUE_ARRAYS)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES) // an absent NumPDBViolations is 0, as in Go
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    // preempt, filter and prioritize bodies: duplicate keys are checked by their readers (UniqueKeyTokens),
    // without a set per object
    private final ObjectReader keysUnchecked = mapper.reader().without(StreamReadFeature.STRICT_DUPLICATE_DETECTION);

    // the scheduler sends one body at a time: the last one is the next one's likeliest predecessor
    private final AtomicReference<SeenNodeObjects> lastSeen = new AtomicReference<>();

    public <T> T read(byte[] body, Class<T> type) {
        requireBody(body);
        try {
            T value = mapper.readValue(body, type);
            if (value == null) {
                throw new BadRequestException("request body is null, expected a JSON object");
            }
            return value;
        } catch (DatabindException e) {
            throw new BadRequestException("invalid request at " + path(e) + ": " + firstLine(e.getOriginalMessage()));
        } catch (JacksonException e) {
            throw malformed(e);
        }
    }

    /**
     * A filter or prioritize body, read in one pass: by {@link NodesArgsScanner} when it is sure
     * of the body (names or full Node objects, well formed), else by Jackson's tokens ({@link NodesArgsReader}).
     * The node objects of the last large body are kept to recognise them in the next.
     */
    public NodesArgs readNodesArgs(byte[] body, NodeTable known) {
        return readNodesArgs(body, known, known);
    }

    /**
     * {@link #readNodesArgs} for an answer that needs no node's row (the filter's): names are taken
     * as they come, not looked up in {@code known}, which at 500 names a call is most of a filter's
     * time when other processes hold the CPU caches. Node objects are still read against {@code known},
     * whose rows let the next body's objects be recognised rather than scanned ({@link SeenNodeObjects}).
     */
    public NodesArgs readNodesArgsUnresolved(byte[] body, NodeTable known) {
        return readNodesArgs(body, known, NodeTable.EMPTY, null);
    }

    /**
     * {@link #readNodesArgs} ({@code resolve}) or {@link #readNodesArgsUnresolved}, with {@code NodeNames}
     * read into {@code reused}, the buffers its thread keeps from call to call: the result is valid until
     * that thread reads its next body (see {@link RequestedNodes.Builder#lend}).
     */
    public NodesArgs readNodesArgs(byte[] body, NodeTable known, boolean resolve, VerbBuffers reused) {
        return readNodesArgs(body, known, resolve ? known : NodeTable.EMPTY, reused);
    }

    private NodesArgs readNodesArgs(byte[] body, NodeTable objectsAgainst, NodeTable namesAgainst) {
        return readNodesArgs(body, objectsAgainst, namesAgainst, null);
    }

    private NodesArgs readNodesArgs(byte[] body, NodeTable objectsAgainst, NodeTable namesAgainst, VerbBuffers reused) {
        requireBody(body);
        NodesArgs scanned = NodesArgsScanner.read(body, objectsAgainst, namesAgainst, ScanSplit.VERBS, lastSeen.get(),
                reused);
        if (scanned == null) {
            return readNodesArgsByTokens(body, namesAgainst, reused);
        }
        SeenNodeObjects seen = SeenNodeObjects.of(body, scanned);
        if (seen != null) {
            lastSeen.set(seen);
        }
        return scanned;
    }

    /** {@link #readNodesArgs} by Jackson's tokens alone: every body, and every error message, is this reader's. */
    NodesArgs readNodesArgsByTokens(byte[] body, NodeTable known) {
        return readNodesArgsByTokens(body, known, null);
    }

    private NodesArgs readNodesArgsByTokens(byte[] body, NodeTable known, VerbBuffers reused) {
        requireBody(body);
        // the factory's own parser: the reader checks keys itself, and no databind context is made per call
        try (JsonParser parser = mapper.tokenStreamFactory().createParser(ObjectReadContext.empty(), body)) {
            return reused == null ? NodesArgsReader.read(parser, body, known)
                    : NodesArgsReader.read(parser, body, known, reused);
        } catch (JacksonException e) {
            throw malformed(e);
        }
    }

    /**
     * A preempt body, read in one pass by Jackson's tokens ({@link PreemptArgsReader}) as it arrives:
     * the body is never held whole (a scheduler that sends whole victim pods sends megabytes, and an
     * array that large is allocated outside G1's young generation, squeezing it until collections
     * fail to evacuate). The names of nodes {@code known} are read as its own Strings. A stream that
     * fails, or passes the size limit, is rethrown as Jackson wraps it ({@link JacksonIOException}).
     */
    public PreemptArgsReader.PreemptArgs readPreemptArgs(InputStream body, NodeTable known) {
        try (JsonParser parser = keysUnchecked.createParser(body)) {
            return PreemptArgsReader.read(parser, mapper.tokenStreamFactory(), known);
        } catch (JacksonIOException e) {
            throw e;
        } catch (JacksonException e) {
            throw malformed(e);
        }
    }

    /** {@link #readPreemptArgs(InputStream, NodeTable)} of a body in hand (makeroom's own warm-up, tests). */
    public PreemptArgsReader.PreemptArgs readPreemptArgs(byte[] body, NodeTable known) {
        requireBody(body);
        return readPreemptArgs(new ByteArrayInputStream(body), known);
    }

    private static void requireBody(byte[] body) {
        if (body == null || body.length == 0) {
            throw new BadRequestException("request body is empty");
        }
    }

    private static BadRequestException malformed(JacksonException e) {
        return new BadRequestException("malformed JSON: " + firstLine(e.getOriginalMessage()));
    }

    public byte[] write(Object value) {
        return mapper.writeValueAsBytes(value);
    }

    public String writeString(Object value) {
        return mapper.writeValueAsString(value);
    }

    private static String path(DatabindException e) {
        StringBuilder sb = new StringBuilder();
        for (JacksonException.Reference ref : e.getPath()) {
            if (ref.getPropertyName() != null) {
                sb.append(sb.isEmpty() ? "" : ".").append(ref.getPropertyName());
            } else if (ref.getIndex() >= 0) {
                sb.append('[').append(ref.getIndex()).append(']');
            }
        }
        return sb.isEmpty() ? "the top level" : sb.toString();
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
