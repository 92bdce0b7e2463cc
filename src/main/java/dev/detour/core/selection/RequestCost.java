package dev.detour.core.selection;

import dev.detour.core.usage.TokenUsage;
import java.math.BigInteger;

/**
 * The cost of one request (SPEC §1 event cost, Smart keys, B-4): Σ tokens of each class × that
 * class's model price × group ratio, in micros, integer arithmetic. Unknown price → 0 (nothing to
 * charge against).
 */
public final class RequestCost {
    private static final BigInteger MILLION_SQUARED = BigInteger.valueOf(1_000_000L * 1_000_000L);

    private RequestCost() {
    }

    /** @param ratioPpm the group's price ratio (1,000,000 = 1.0x) */
    public static long micros(TokenUsage usage, ModelPrice price, long ratioPpm) {
        if (price == null) {
            return 0;
        }
        // B-4: reasoning is part of output and priced as output
        BigInteger base = times(usage.input(), price.inputMicrosPerM())
                .add(times(usage.output(), price.outputMicrosPerM()))
                .add(times(usage.cacheRead(), price.cacheReadPrice()))
                .add(times(usage.cacheWrite5m(), price.cacheWrite5mPrice()))
                .add(times(usage.cacheWrite1h(), price.cacheWrite1hPrice()));
        // base is in micros × million tokens; apply the ratio before dividing to keep precision
        return base.multiply(BigInteger.valueOf(ratioPpm)).divide(MILLION_SQUARED).longValueExact();
    }

    private static BigInteger times(long tokens, long microsPerM) {
        return BigInteger.valueOf(Math.max(0, tokens)).multiply(BigInteger.valueOf(microsPerM));
    }
}
