package dev.makeroom.support.property;

/** A case a generator could not make (its filter or uniqueness kept missing): it is neither run nor counted. */
public final class Rejected extends RuntimeException {

    public Rejected(String why) {
        super(why, null, false, false);
    }
}
