package dev.makeroom.process;

/**
 * Ends the process on an OutOfMemoryError thrown anywhere, as {@code -XX:+ExitOnOutOfMemoryError}
 * does in the image: a replica whose informer threads died of it would otherwise stay up, never
 * ready, instead of being restarted. For {@code java -jar} and other launches without the flag.
 */
public final class OutOfMemoryExit {

    static final int EXIT_CODE = 3;

    private OutOfMemoryExit() {
    }

    public static void install() {
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> {
            exitIfOutOfMemory(error, thread.getName());
            if (previous != null) {
                previous.uncaughtException(thread, error);
            } else {
                error.printStackTrace();
            }
        });
    }

    /** Halts the process if {@code error} is, or was caused by, an OutOfMemoryError. */
    public static void exitIfOutOfMemory(Throwable error, String where) {
        if (causedByOutOfMemory(error)) {
            System.err.println("makeroom: out of memory in " + where + "; exiting");
            Runtime.getRuntime().halt(EXIT_CODE);
        }
    }

    static boolean causedByOutOfMemory(Throwable error) {
        for (Throwable e = error; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof OutOfMemoryError) {
                return true;
            }
        }
        return false;
    }
}
