package dev.detour.adapter.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PasswordHasherTest {
    private final PasswordHasher hasher = new PasswordHasher();

    @Test
    void hashedPasswordVerifiesAgainstItself() {
        String stored = hasher.hash("correct horse battery staple");
        assertTrue(hasher.verify("correct horse battery staple", stored));
    }

    @Test
    void wrongPasswordDoesNotVerify() {
        String stored = hasher.hash("correct horse battery staple");
        assertFalse(hasher.verify("correct horse battery stapler", stored));
        assertFalse(hasher.verify("", stored));
    }

    @Test
    void storedFormIsSchemeIterationsSaltAndHashWithAtLeast210000Iterations() {
        String stored = hasher.hash("pw-123456");
        String[] parts = stored.split("\\$");
        assertEquals(4, parts.length);
        assertEquals("pbkdf2-sha256", parts[0]);
        assertTrue(Integer.parseInt(parts[1]) >= 210_000, stored);
        assertTrue(PasswordHasher.iterationsOf(stored) >= 210_000);
        assertEquals(16, java.util.Base64.getDecoder().decode(parts[2]).length);
        assertEquals(32, java.util.Base64.getDecoder().decode(parts[3]).length);
    }

    @Test
    void samePasswordGetsADifferentSaltEachTime() {
        assertNotEquals(hasher.hash("same-password"), hasher.hash("same-password"));
    }

    @Test
    void verifyUsesTheIterationCountStoredWithTheHash() {
        String cheap = new PasswordHasher(new java.security.SecureRandom(), 1_000).hash("legacy-pass");
        assertEquals(1_000, PasswordHasher.iterationsOf(cheap));
        assertTrue(hasher.verify("legacy-pass", cheap));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "plain", "pbkdf2-sha256$x$AAAA$AAAA", "pbkdf2-sha256$0$AAAA$AAAA",
        "md5$1$AAAA$AAAA", "pbkdf2-sha256$1000$!!$AAAA"})
    void malformedStoredValueNeverVerifies(String stored) {
        assertFalse(hasher.verify("anything", stored));
    }
}
