package dev.detour.core.selection;

/**
 * A model's base price in micros (of the site currency) per million tokens, input and output.
 * Ranking compares one number per route, {@link #blendedMicrosPerM()}: input + output, i.e. a
 * request with as many output as input tokens — monotone in both, the same for every route.
 */
public record ModelPrice(long inputMicrosPerM, long outputMicrosPerM) {

    public ModelPrice {
        if (inputMicrosPerM < 0 || outputMicrosPerM < 0) {
            throw new IllegalArgumentException("model prices cannot be negative");
        }
    }

    public long blendedMicrosPerM() {
        long sum = inputMicrosPerM + outputMicrosPerM;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}
