package dev.detour.adapter.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SecretBoxTest {
    private static final byte[] KEY = Base64.getDecoder().decode("MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=");
    private final SecretBox box = new SecretBox(KEY);

    @Test
    void sealedSecretOpensAgainForTheSameAccount() {
        String sealed = box.seal("sk-live-0123456789abcdef", 42);
        assertTrue(sealed.startsWith("v1:"));
        assertFalse(sealed.contains("sk-live"));
        assertEquals("sk-live-0123456789abcdef", box.open(sealed, 42));
    }

    @Test
    void sealedValueIsIvPlusCiphertextPlusTag() {
        byte[] raw = Base64.getDecoder().decode(box.seal("abc", 1).substring(3));
        assertEquals(12 + 3 + 16, raw.length);
    }

    @Test
    void everySealUsesAFreshIv() {
        assertNotEquals(box.seal("same", 7), box.seal("same", 7));
    }

    @Test
    void tamperedCiphertextDoesNotOpen() {
        String sealed = box.seal("sk-secret-value", 5);
        byte[] raw = Base64.getDecoder().decode(sealed.substring(3));
        raw[14] ^= 0x01;
        String tampered = "v1:" + Base64.getEncoder().encodeToString(raw);
        assertThrows(SecretBox.SecretBoxException.class, () -> box.open(tampered, 5));
    }

    @Test
    void secretSealedForOneAccountDoesNotOpenForAnother() {
        String sealed = box.seal("sk-secret-value", 5);
        assertThrows(SecretBox.SecretBoxException.class, () -> box.open(sealed, 6));
    }

    @Test
    void wrongMasterKeyDoesNotOpen() {
        byte[] other = KEY.clone();
        other[0] ^= 0x01;
        String sealed = box.seal("sk-secret-value", 5);
        assertThrows(SecretBox.SecretBoxException.class, () -> new SecretBox(other).open(sealed, 5));
    }

    @Test
    void unknownFormatIsRejectedWithoutEchoingIt() {
        var e = assertThrows(SecretBox.SecretBoxException.class, () -> box.open("sk-plaintext-key", 5));
        assertFalse(e.getMessage().contains("sk-plaintext-key"));
    }

    @Test
    void masterKeyMustBe32Bytes() {
        assertThrows(IllegalArgumentException.class, () -> new SecretBox(new byte[16]));
    }

    @ParameterizedTest
    @CsvSource({
        "sk-ant-api03-abcdefghijklmnop, sk-…mnop",
        "sk-0123456789ab, sk-…89ab",
        "abcdefghijkl, abc…ijkl",
        "abcdefghijk, …jk",
        "sk-short, …rt",
        "x, …x"
    })
    void hintShowsOnlyTheEdgesOfAKey(String key, String hint) {
        assertEquals(hint, Secrets.hint(key));
    }
}
