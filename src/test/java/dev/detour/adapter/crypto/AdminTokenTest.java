package dev.detour.adapter.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class AdminTokenTest {
    @Test
    void theRightTokenMatchesAndAnyOtherDoesNot() {
        AdminToken token = AdminToken.ofPlain("test-admin-token-0123456789");
        assertTrue(token.matches("test-admin-token-0123456789"));
        assertFalse(token.matches("test-admin-token-012345678"));
        assertFalse(token.matches("test-admin-token-01234567890"));
        assertFalse(token.matches(""));
        assertFalse(token.matches(null));
    }

    @Test
    void onlyTheDigestIsKeptAndItRoundTrips() {
        AdminToken token = AdminToken.ofPlain("secret-token-value-xyz");
        assertEquals(64, token.hexDigest().length());
        assertFalse(token.hexDigest().contains("secret"));
        assertTrue(AdminToken.ofHexDigest(token.hexDigest()).matches("secret-token-value-xyz"));
    }

    @Test
    void generatedTokensAreLongAndDistinct() {
        String a = AdminToken.generate();
        assertTrue(a.startsWith("dta-") && a.length() >= 40, a);
        assertNotEquals(a, AdminToken.generate());
    }

    @Test
    void comparisonIsConstantTimeOverDigests() throws IOException {
        // the reviewable contract: hash both sides, compare with MessageDigest.isEqual, never String.equals
        String source = Files.readString(Path.of("src/main/java/dev/detour/adapter/crypto/AdminToken.java"));
        assertTrue(source.contains("MessageDigest.isEqual(digest, sha256(presented))"));
        assertFalse(source.contains(".equals(presented"));
    }
}
