package dev.makeroom.mapping;

import com.fasterxml.jackson.databind.JsonMappingException;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;

import java.util.Optional;

/**
 * What to tell about an object fabric8 could not read: where, since fabric8 maps Kubernetes objects
 * with its own (Jackson 2) mapper, whose mapping errors carry the path of the value they stopped
 * at; and what, as the first line of the innermost cause (for YAML that does not parse, the line and
 * column the parser stopped at and what it expected, not its snippet of the text).
 */
public final class ReadFailures {

    private ReadFailures() {
    }

    /** {@code root} followed by the failing value's path ({@code Pod.spec.containers[0].ports}), or {@code root}. */
    public static String path(Throwable error, String root) {
        for (Throwable e = error; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof JsonMappingException mapping) {
                StringBuilder path = new StringBuilder(root);
                for (JsonMappingException.Reference ref : mapping.getPath()) {
                    if (ref.getFieldName() != null) {
                        path.append('.').append(ref.getFieldName());
                    } else if (ref.getIndex() >= 0) {
                        path.append('[').append(ref.getIndex()).append(']');
                    }
                }
                return path.toString();
            }
        }
        return root;
    }

    /** The innermost cause's message, its first line only. */
    public static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root instanceof MarkedYamlEngineException yaml && yaml.getProblem() != null) {
            return where(yaml.getProblemMark()) + yaml.getProblem() + (yaml.getContext() == null ? ""
                    : " (" + yaml.getContext() + yaml.getContextMark().map(m -> " from " + at(m)).orElse("") + ")");
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    /** "line 5, column 1: " where the YAML parser stopped (its marks count from 0), or nothing without one. */
    private static String where(Optional<Mark> mark) {
        return mark.map(m -> at(m) + ": ").orElse("");
    }

    private static String at(Mark mark) {
        return "line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1);
    }
}
