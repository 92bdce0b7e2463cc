package dev.detour.core.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/** F-6: the fingerprint value. */
class FingerprintTest {

    @Test
    void fingerprintOfAKnownInputIsTheSha256OfTheSeedsFormat() {
        // sha256("semantic_response_failed|429|upstream returned 429")
        assertEquals("sha256:f94a8be2e24a899847653ffc59ea8a1ff3ee9d13432b37e859049b0a6dbd5d84",
                Fingerprint.of(429, "upstream returned 429"));
        // sha256("semantic_response_failed|none|quota exhausted now")
        assertEquals("sha256:55315f7b8a938a2feba66b640f80b9f7c82aca1e1f3e67ac7965fa354af3364f",
                Fingerprint.of(null, "quota exhausted now"));
    }

    @Test
    void whitespaceAndCaseDoNotChangeTheFingerprint() {
        assertEquals(Fingerprint.of(null, "quota exhausted now"), Fingerprint.of(null, "  Quota\n EXHAUSTED\t\tnow "));
    }

    @Test
    void statusAndWordingDo() {
        assertNotEquals(Fingerprint.of(200, "x"), Fingerprint.of(null, "x"));
        assertNotEquals(Fingerprint.of(200, "x"), Fingerprint.of(200, "y"));
    }
}
