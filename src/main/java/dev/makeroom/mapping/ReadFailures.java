package dev.makeroom.mapping;

import com.fasterxml.jackson.databind.JsonMappingException;

/**
 * What to tell about an object fabric8 could not read: where, since fabric8 maps Kubernetes objects
 * with its own (Jackson 2) mapper, whose mapping errors carry the path of the value they stopped
 * at; and what, as the first line of the innermost cause.
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
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
