package dev.detour.core.cooldown;

import java.util.Objects;

/** F-6: a fingerprinted streak (count + fingerprint) as stored on the account or a model row. */
public record Streak(int count, String fingerprint) {
    public static final Streak NONE = new Streak(0, null);

    /** Same fingerprint → +1 capped at the threshold; a different one → 1 with the new fingerprint. */
    public Streak next(String newFingerprint, int threshold) {
        if (count > 0 && Objects.equals(fingerprint, newFingerprint)) {
            return new Streak(Math.min(count + 1, threshold), fingerprint);
        }
        return new Streak(1, newFingerprint);
    }

    public boolean reached(int threshold) {
        return count >= threshold;
    }
}
