package dev.makeroom.core.room;

/**
 * Law 2 as constraints on a victim set: floor {@code k} allows the victims drawing on it to take
 * at most {@code slack[k]} (a queue's usage above its guarantee, in one resource); candidate
 * {@code i} draws {@code draw[i][j]} from floor {@code of[i][j]}. Adding a victim only draws more,
 * so a set that breaks a floor cannot be repaired by adding to it: the search prunes there.
 * What a set draws is added up in a {@link FloorLedger}.
 */
record QueueFloors(long[] slack, int[][] of, long[][] draw, String[] names) {

    static final QueueFloors NONE = new QueueFloors(new long[0], null, null, new String[0]);

    int size() {
        return slack.length;
    }

    int[] of(int candidate) {
        return of == null ? EMPTY : of[candidate];
    }

    long[] draw(int candidate) {
        return draw == null ? EMPTY_LONGS : draw[candidate];
    }

    private static final int[] EMPTY = new int[0];
    private static final long[] EMPTY_LONGS = new long[0];
}
