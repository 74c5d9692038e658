package dev.makeroom.core.score;

/** One prioritize answer entry: a node and its score, 0..10. */
public record NodeScore(String host, int score) {
}
