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
