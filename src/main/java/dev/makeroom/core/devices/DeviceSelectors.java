package dev.makeroom.core.devices;

/**
 * Evaluates a CEL selector against a device ({@link DeviceCel} with CEL-Java). An expression that
 * does not compile or fails to evaluate (a missing attribute, a wrong type) is a
 * {@link SelectorError}: the scheduler returns an error for the pod then, not "unschedulable".
 */
public interface DeviceSelectors {

    /** Whether {@code device} of {@code driver} passes {@code expression}. */
    boolean matches(String expression, String driver, Device device) throws SelectorError;

    /**
     * Why a selector could not be evaluated, in CEL's words; {@code unmodelled}: it uses a function
     * makeroom's environment lacks (the scheduler's compiled it, or the API would have refused it).
     */
    final class SelectorError extends Exception {
        private final boolean unmodelled;

        public SelectorError(String message, boolean unmodelled) {
            super(message);
            this.unmodelled = unmodelled;
        }

        public boolean unmodelled() {
            return unmodelled;
        }
    }
}
