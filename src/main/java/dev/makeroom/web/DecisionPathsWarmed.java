package dev.makeroom.web;

/** Published once the warm-up has run its rounds, before readiness reports it done. */
record DecisionPathsWarmed(long rounds, boolean overHttp) {
}
