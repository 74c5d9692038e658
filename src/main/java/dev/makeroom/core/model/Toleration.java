package dev.makeroom.core.model;

import java.util.Objects;

/**
 * A pod's toleration, matched as Kubernetes matches it: an empty key with {@code Exists} tolerates
 * every taint; an empty effect every effect; {@code Exists} any value, {@code Equal} (the default) only
 * its own.
 */
public record Toleration(String key, String operator, String value, String effect) {

    public boolean tolerates(Taint taint) {
        if (effect != null && !effect.isEmpty() && !effect.equals(taint.effect())) {
            return false;
        }
        boolean exists = "Exists".equals(operator);
        if (key == null || key.isEmpty()) {
            return exists;
        }
        if (!key.equals(taint.key())) {
            return false;
        }
        return exists || Objects.equals(emptyToNull(value), emptyToNull(taint.value()));
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
