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
     * Whether the {@code index}-th device of {@code pool} passes {@code expression}: as above; a
     * selector may keep its answers per pool version, so a search over thousands of nodes looks each up
     * by position.
     */
    default boolean matches(String expression, DevicePool pool, int index) throws SelectorError {
        return matches(expression, pool.driver(), pool.devices().get(index));
    }

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
