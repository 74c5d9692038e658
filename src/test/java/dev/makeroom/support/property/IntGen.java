package dev.makeroom.support.property;

/** Ints in a closed range; they shrink toward the range's low end. */
public final class IntGen implements Gen<Integer> {

    private final int min;
    private final int max;

    IntGen(int min, int max) {
        if (max < min) {
            throw new IllegalArgumentException("ints " + min + ".." + max);
        }
        this.min = min;
        this.max = max;
    }

    public IntGen between(int low, int high) {
        return new IntGen(low, high);
    }

    public IntGen greaterOrEqual(int low) {
        return new IntGen(low, max);
    }

    public IntGen lessOrEqual(int high) {
        return new IntGen(min, high);
    }

    @Override
    public Integer draw(Choices choices) {
        return drawInt(choices);
    }

    int drawInt(Choices choices) {
        return (int) (min + choices.offset((long) max - min));
    }

    /** Arrays of these ints, of one size or sizes in a range. */
    public ArrayGen arrays() {
        return new ArrayGen(this, 0, ListGen.DEFAULT_MAX_SIZE);
    }

    /** int arrays of sizes in a range. */
    public static final class ArrayGen implements Gen<int[]> {
        private final IntGen element;
        private final int minSize;
        private final int maxSize;

        private ArrayGen(IntGen element, int minSize, int maxSize) {
            this.element = element;
            this.minSize = minSize;
            this.maxSize = maxSize;
        }

        public ArrayGen ofSize(int size) {
            return new ArrayGen(element, size, size);
        }

        @Override
        public int[] draw(Choices choices) {
            int[] values = new int[minSize + choices.sizeOffset(maxSize - minSize)];
            for (int i = 0; i < values.length; i++) {
                values[i] = element.drawInt(choices);
            }
            return values;
        }
    }
}
