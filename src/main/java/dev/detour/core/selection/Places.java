package dev.detour.core.selection;

/**
 * Places in a pool, appended in pool order, up to a capacity known at the start. Places added whole from a stretch
 * worked out with the pool ({@link ServedRun}) are that stretch's own array, not a copy, as long as nothing else is
 * added (N-10: a one-group pool's request copied its 200 places twice, screening and partition); the array is
 * copied only when more places follow. Not thread-safe: a plan's own.
 */
final class Places {
    private static final int[] NONE = new int[0];

    private final int capacity;
    private int[] slots = NONE;
    /** Whether {@code slots} is this list's own array (else it is shared, and read only). */
    private boolean owned;
    private int size;

    Places(int capacity) {
        this.capacity = capacity;
    }

    void add(int slot) {
        own();
        slots[size++] = slot;
    }

    /** Adds {@code some}, which nobody changes afterwards: kept as it is when nothing was added before. */
    void addAll(int[] some) {
        if (size == 0) {
            slots = some;
            size = some.length;
            owned = false;
            return;
        }
        own();
        System.arraycopy(some, 0, slots, size, some.length);
        size += some.length;
    }

    int get(int index) {
        return slots[index];
    }

    int size() {
        return size;
    }

    private void own() {
        if (!owned) {
            int[] mine = new int[capacity];
            System.arraycopy(slots, 0, mine, 0, size);
            slots = mine;
            owned = true;
        }
    }
}
