package dev.makeroom.core.devices;

import java.util.List;

/**
 * A device's capacity and, for a device several claims may share, how a request is rounded:
 * {@code defaultAmount} when the request names none (null: the whole capacity), up to the next of
 * {@code validValues}, or up from {@code rangeMin} in steps of {@code rangeStep} (no more than
 * {@code rangeMax}).
 */
public record DeviceCapacity(DeviceQuantity value, DeviceQuantity defaultAmount, List<DeviceQuantity> validValues,
                             DeviceQuantity rangeMin, DeviceQuantity rangeMax, DeviceQuantity rangeStep) {

    public DeviceCapacity {
        validValues = validValues == null ? List.of() : List.copyOf(validValues);
    }

    public static DeviceCapacity of(DeviceQuantity value) {
        return new DeviceCapacity(value, null, List.of(), null, null, null);
    }

    /**
     * What a request of {@code asked} (null: none named) consumes of this capacity: rounded up to a
     * valid amount; null when no valid amount is at least {@code asked}.
     */
    public DeviceQuantity consumed(DeviceQuantity asked) {
        if (asked == null) {
            return defaultAmount != null ? defaultAmount : value;
        }
        if (!validValues.isEmpty()) {
            return validValues.stream().filter(v -> v.compareTo(asked) >= 0).findFirst().orElse(null);
        }
        if (rangeMin != null) {
            DeviceQuantity amount = asked.compareTo(rangeMin) < 0 ? rangeMin : asked;
            if (rangeStep != null && rangeStep.signum() > 0) {
                java.math.BigDecimal steps = amount.value().subtract(rangeMin.value())
                        .divide(rangeStep.value(), 0, java.math.RoundingMode.CEILING);
                amount = new DeviceQuantity(rangeMin.value().add(steps.multiply(rangeStep.value())));
            }
            return rangeMax != null && amount.compareTo(rangeMax) > 0 ? null : amount;
        }
        return asked;
    }
}
