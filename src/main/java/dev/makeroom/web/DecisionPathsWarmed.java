package dev.makeroom.web;

/**
 * Published once the warm-up has ended (readiness already counts it done), with what it ran;
 * {@code failure} says why it stopped early, null when it ran to the end.
 */
record DecisionPathsWarmed(long rounds, boolean overHttp, String failure) {

    boolean failed() {
        return failure != null;
    }
}
