package dev.makeroom.cluster;

import com.fasterxml.jackson.databind.JsonMappingException;

/**
 * Where in an object fabric8 failed to read it: fabric8 maps Kubernetes objects with its own
 * (Jackson 2) mapper, whose mapping errors carry the path of the value they stopped at.
 */
public final class FabricJsonPaths {

    private FabricJsonPaths() {
    }

    /** {@code root} followed by the failing value's path ({@code Pod.spec.containers[0].ports}), or {@code root}. */
    public static String of(Throwable error, String root) {
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
}
