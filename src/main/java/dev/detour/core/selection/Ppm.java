package dev.detour.core.selection;

/** Integer fixed-point helpers (S-3: all ranking arithmetic in integers, 1,000,000 = 1.0). */
final class Ppm {
    static final long ONE = 1_000_000L;

    private Ppm() {
    }

    /** {@code num / den} in ppm, floored; 0 when {@code den ≤ 0}; safe for very large counts. */
    static long ratio(long num, long den) {
        if (den <= 0 || num <= 0) {
            return 0;
        }
        while (num > Long.MAX_VALUE / ONE) {
            num /= 2;
            den = Math.max(1, den / 2);
        }
        return num * ONE / den;
    }

    /** {@code a × b}, saturating at {@link Long#MAX_VALUE} instead of overflowing (both ≥ 0). */
    static long times(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long low = a * b;
        return high != 0 || low < 0 ? Long.MAX_VALUE : low;
    }
}
