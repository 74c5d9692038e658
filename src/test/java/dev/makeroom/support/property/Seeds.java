package dev.makeroom.support.property;

/**
 * Where every property's cases come from: one base seed for the whole suite ({@code -Dmakeroom.seed=N},
 * 0 unless given), mixed with the property's name, then with the try's number. A run is the same run
 * on every machine; another base seed explores other cases. {@code -Dmakeroom.case=S} runs one
 * property's one case: the case seed its failure printed.
 */
public final class Seeds {

    /** The suite's base seed. */
    public static final String SEED = "makeroom.seed";
    /** One case to run instead of all tries. */
    public static final String CASE = "makeroom.case";

    private Seeds() {
    }

    public static long base() {
        String given = System.getProperty(SEED);
        return given == null || given.isBlank() ? 0 : Long.parseLong(given.trim());
    }

    /** The case given on the command line, or null: then all tries run. */
    public static Long oneCase() {
        String given = System.getProperty(CASE);
        return given == null || given.isBlank() ? null : Long.parseLong(given.trim());
    }

    /** The seed of a property's try. */
    public static long ofTry(long base, String property, int tryNumber) {
        return mix(mix(base ^ property.hashCode()) + tryNumber);
    }

    /** A 64-bit finaliser: nearby inputs, unrelated outputs. */
    static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }
}
