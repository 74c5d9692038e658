package dev.makeroom.core.rounds;

/**
 * One rescheduler policy's settings, as its section of the policies document gives them: a record in
 * the policy's own file, with its defaults and checks in the policy's {@link PolicyReader#read}.
 */
public interface PolicySettings {

    /** Whether the document turns the policy on. */
    boolean enabled();

    /** The same settings, the policy switched off. */
    PolicySettings off();
}
