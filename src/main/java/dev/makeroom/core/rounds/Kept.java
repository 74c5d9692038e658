package dev.makeroom.core.rounds;

/** Why a pod stays where it is, by kind ({@link SkipCategory}) and in words. */
record Kept(SkipCategory category, String text) {
}
