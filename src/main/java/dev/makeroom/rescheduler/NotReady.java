package dev.makeroom.rescheduler;

/**
 * Why a planned move must not be sent now: the room it makes could not be reserved or was stopped,
 * or the drain it belongs to did not start or was abandoned. A move with none is sent.
 */
record NotReady(String why) {
}
