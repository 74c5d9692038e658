package dev.makeroom.mapping;

import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.Map;

/** Converts Kubernetes quantities into makeroom's integer base units (cpu: millicores, rounded up like Kubernetes). */
public final class Quantities {

    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

    private Quantities() {
    }

    /** The amount in base units; an unreadable or too large quantity is an IllegalArgumentException naming it. */
    public static long toLong(String resource, Quantity quantity) {
        long plain = plain(resource, quantity.getAmount(), quantity.getFormat());
        return plain >= 0 ? plain : viaDecimal(resource, quantity);
    }

    /**
     * Whole numbers with a plain suffix ("250m", "128Mi", "2") read without BigDecimal: nearly every
     * quantity is one, and the decimal path allocated some 300 MB over a first sync of 150,000 pods.
     * -1 for anything else (fractions, exponents, signs, overflow): the decimal path decides.
     */
    private static long plain(String resource, String amount, String format) {
        if (amount == null || amount.isEmpty() || amount.length() > 18) {
            return -1;
        }
        long value = digits(amount, 0, amount.length());
        if (value < 0) {
            return -1;
        }
        long multiplier = multiplier(format == null ? "" : format);
        if (multiplier == 0) {
            return -1;
        }
        try {
            long units = Math.multiplyExact(Math.multiplyExact(value, multiplier), "cpu".equals(resource) ? 1000L : 1L);
            // "m" is thousandths: multiplier() left them as whole units, divide, rounding up as Kubernetes does
            return "m".equals(format) ? -Math.floorDiv(-units, 1000L) : units;
        } catch (ArithmeticException e) {
            return -1;
        }
    }

    /** The factor of a suffix ("m" counts as 1, divided afterwards), or 0 for one read only by the decimal path. */
    private static long multiplier(String format) {
        return switch (format) {
            case "", "m" -> 1L;
            case "k" -> 1_000L;
            case "M" -> 1_000_000L;
            case "G" -> 1_000_000_000L;
            case "T" -> 1_000_000_000_000L;
            case "P" -> 1_000_000_000_000_000L;
            case "Ki" -> 1L << 10;
            case "Mi" -> 1L << 20;
            case "Gi" -> 1L << 30;
            case "Ti" -> 1L << 40;
            case "Pi" -> 1L << 50;
            default -> 0L;
        };
    }

    /**
     * The decimal number in {@code s[from, to)} (at most 18 digits, so it cannot overflow), or -1 if
     * any of it is not an ASCII digit. Also reads the fields of {@code Timestamps}.
     */
    static long digits(String s, int from, int to) {
        long value = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /** What BigDecimal makes of any quantity fabric8 accepts. */
    static long viaDecimal(String resource, Quantity quantity) {
        try {
            BigDecimal amount = quantity.getNumericalAmount();
            if ("cpu".equals(resource)) {
                amount = amount.multiply(THOUSAND);
            }
            return amount.setScale(0, RoundingMode.CEILING).longValueExact();
        } catch (ArithmeticException | IllegalArgumentException e) {
            throw new IllegalArgumentException(resource + " quantity '" + quantity.getAmount()
                    + (quantity.getFormat() == null ? "" : quantity.getFormat()) + "' cannot be read: "
                    + e.getMessage(), e);
        }
    }

    static Map<String, Long> toLongs(Map<String, Quantity> quantities) {
        Map<String, Long> out = new HashMap<>();
        if (quantities != null) {
            quantities.forEach((name, q) -> {
                if (q != null) {
                    out.put(name, toLong(name, q));
                }
            });
        }
        return out;
    }
}
