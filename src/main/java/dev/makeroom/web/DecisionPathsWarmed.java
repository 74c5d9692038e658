package dev.makeroom.web;

/** Published once the warm-up has ended (readiness already counts it done), with what it ran. */
record DecisionPathsWarmed(long rounds, boolean overHttp) {
}
