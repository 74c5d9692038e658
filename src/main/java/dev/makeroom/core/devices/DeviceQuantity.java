package dev.makeroom.core.devices;

import java.math.BigDecimal;

/**
 * A Kubernetes quantity ({@code 80Gi}, {@code 500m}, {@code 1e3}) as an exact decimal, for device
 * capacities and counters and CEL's {@code quantity()}: compared and added exactly, never rounded.
 */
public record DeviceQuantity(BigDecimal value) implements Comparable<DeviceQuantity> {

    public static final DeviceQuantity ZERO = new DeviceQuantity(BigDecimal.ZERO);

    public DeviceQuantity {
        value = value.stripTrailingZeros();
    }

    /** The quantity {@code text} says; an IllegalArgumentException naming it when it is not one. */
    public static DeviceQuantity parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("'' is not a quantity");
        }
        int end = text.length();
        while (end > 0 && Character.isLetter(text.charAt(end - 1))) {
            end--;
        }
        String number = text.substring(0, end);
        String suffix = text.substring(end);
        BigDecimal multiplier = multiplier(suffix); // "1e3" keeps its exponent in the number; "1E" alone is exa
        if (multiplier == null || number.isEmpty() || !number.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
            throw notAQuantity(text);
        }
        return new DeviceQuantity(new BigDecimal(number).multiply(multiplier));
    }

    private static IllegalArgumentException notAQuantity(String text) {
        return new IllegalArgumentException("'" + text + "' is not a quantity");
    }

    private static BigDecimal multiplier(String suffix) {
        return switch (suffix) {
            case "" -> BigDecimal.ONE;
            case "n" -> new BigDecimal("1e-9");
            case "u" -> new BigDecimal("1e-6");
            case "m" -> new BigDecimal("1e-3");
            case "k" -> new BigDecimal("1e3");
            case "M" -> new BigDecimal("1e6");
            case "G" -> new BigDecimal("1e9");
            case "T" -> new BigDecimal("1e12");
            case "P" -> new BigDecimal("1e15");
            case "E" -> new BigDecimal("1e18");
            case "Ki" -> BigDecimal.valueOf(1L << 10);
            case "Mi" -> BigDecimal.valueOf(1L << 20);
            case "Gi" -> BigDecimal.valueOf(1L << 30);
            case "Ti" -> BigDecimal.valueOf(1L << 40);
            case "Pi" -> BigDecimal.valueOf(1L << 50);
            case "Ei" -> BigDecimal.valueOf(1L << 60);
            default -> null;
        };
    }

    public DeviceQuantity plus(DeviceQuantity other) {
        return new DeviceQuantity(value.add(other.value));
    }

    public DeviceQuantity minus(DeviceQuantity other) {
        return new DeviceQuantity(value.subtract(other.value));
    }

    public int signum() {
        return value.signum();
    }

    @Override
    public int compareTo(DeviceQuantity other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value.toPlainString();
    }
}
