package dev.detour.adapter.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PassphraseSealTest {
    private static final String PASSPHRASE = "correct horse battery staple";

    @Test
    void aKeySealedForAnAccountOpensWithTheSamePassphraseFromTheDocumentsParameters() {
        PassphraseSeal seal = PassphraseSeal.create(PASSPHRASE);
        String sealed = seal.seal("sk-upstream-key", "relay-a");
        assertFalse(sealed.contains("sk-upstream-key"));
        assertNotEquals(sealed, seal.seal("sk-upstream-key", "relay-a"), "a fresh nonce each time");
        PassphraseSeal.Params params = seal.params();
        assertEquals("PBKDF2-HMAC-SHA256", params.kdf());
        assertEquals(PassphraseSeal.ITERATIONS, params.iterations());
        assertEquals("AES-256-GCM", params.cipher());
        assertEquals("sk-upstream-key", PassphraseSeal.open(PASSPHRASE, params).open(sealed, "relay-a"));
    }

    @Test
    void aWrongPassphraseOrAKeyMovedToAnotherAccountDoesNotOpen() {
        PassphraseSeal seal = PassphraseSeal.create(PASSPHRASE);
        String sealed = seal.seal("sk-upstream-key", "relay-a");
        assertThrows(PassphraseSeal.WrongPassphrase.class, () -> PassphraseSeal.open("another passphrase", seal.params()));
        assertThrows(PassphraseSeal.WrongPassphrase.class, () -> seal.open(sealed, "relay-b"));
        String tampered = sealed.substring(0, sealed.length() - 4) + (sealed.endsWith("AAAA") ? "BBBB" : "AAAA");
        assertThrows(PassphraseSeal.WrongPassphrase.class, () -> seal.open(tampered, "relay-a"));
    }
}
