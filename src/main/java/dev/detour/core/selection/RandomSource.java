package dev.detour.core.selection;

/**
 * The randomness selection may use, passed in like time so that every pick is reproducible in
 * tests. Production code outside core may back it with a thread-local generator.
 */
public interface RandomSource {
    /** Uniform in [0, bound); bound must be positive. */
    long nextLong(long bound);

    /** Uniform in [0, 1). */
    double nextDouble();
}
