package dev.detour.core.selection;

/**
 * The cost of one request (SPEC §1 event cost, Smart keys): tokens × model price × group
 * ratio, in micros, integer arithmetic. Unknown price → 0 (nothing to charge against).
 */
public final class RequestCost {
    private static final long MILLION = 1_000_000L;

    private RequestCost() {
    }

    /** @param ratioPpm the group's price ratio (1,000,000 = 1.0x) */
    public static long micros(long inputTokens, long outputTokens, ModelPrice price, long ratioPpm) {
        if (price == null) {
            return 0;
        }
        long base = Math.multiplyExact(Math.max(0, inputTokens), price.inputMicrosPerM())
                + Math.multiplyExact(Math.max(0, outputTokens), price.outputMicrosPerM());
        // base is in micros × million tokens; apply the ratio before dividing to keep precision
        return java.math.BigInteger.valueOf(base).multiply(java.math.BigInteger.valueOf(ratioPpm))
                .divide(java.math.BigInteger.valueOf(MILLION * MILLION)).longValueExact();
    }
}
