package dev.makeroom.mapping;

import java.util.HashMap;
import java.util.Map;

/** Label and annotation maps as makeroom keeps them: never null, and without null keys or values. */
public final class StringMaps {

    private StringMaps() {
    }

    public static Map<String, String> clean(Map<String, String> map) {
        if (map == null || map.isEmpty()) {
            return Map.of();
        }
        boolean hasNull = false;
        for (Map.Entry<String, String> e : map.entrySet()) { // immutable maps throw on containsKey(null)
            hasNull |= e.getKey() == null || e.getValue() == null;
        }
        if (!hasNull) {
            return map;
        }
        Map<String, String> clean = new HashMap<>();
        map.forEach((k, v) -> {
            if (k != null && v != null) {
                clean.put(k, v);
            }
        });
        return clean;
    }
}
