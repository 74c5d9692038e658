package dev.makeroom.core.rounds;

/** Why a pod stays where it is, by kind ({@link SkipCategory}) and in words. */
public record Kept(SkipCategory category, String text) {
}
