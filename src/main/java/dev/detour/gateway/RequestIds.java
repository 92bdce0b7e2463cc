package dev.detour.gateway;

import java.security.SecureRandom;
import java.time.Clock;

/**
 * 26-character sortable request ids (ULID layout: 48-bit millisecond time + 80 random bits,
 * Crockford base32), so the request log's natural order is creation order.
 */
public final class RequestIds {
    private static final char[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();

    private RequestIds() {
    }

    public static String next(Clock clock) {
        long time = clock.millis();
        char[] out = new char[26];
        for (int i = 9; i >= 0; i--) {
            out[i] = ALPHABET[(int) (time & 31)];
            time >>>= 5;
        }
        byte[] random = new byte[10];
        RANDOM.nextBytes(random);
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 5; i++) {
            hi = (hi << 8) | (random[i] & 0xff);
            lo = (lo << 8) | (random[i + 5] & 0xff);
        }
        for (int i = 17; i >= 10; i--) {
            out[i] = ALPHABET[(int) (hi & 31)];
            hi >>>= 5;
        }
        for (int i = 25; i >= 18; i--) {
            out[i] = ALPHABET[(int) (lo & 31)];
            lo >>>= 5;
        }
        return new String(out);
    }
}
