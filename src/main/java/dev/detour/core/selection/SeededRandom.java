package dev.detour.core.selection;

import java.util.Random;

/** A {@link RandomSource} from a fixed seed: the same seed gives the same picks. */
public final class SeededRandom implements RandomSource {
    private final Random random;

    public SeededRandom(long seed) {
        this.random = new Random(seed);
    }

    @Override
    public long nextLong(long bound) {
        return random.nextLong(bound);
    }

    @Override
    public double nextDouble() {
        return random.nextDouble();
    }
}
