package dev.detour.adapter.crypto;

import dev.detour.admin.port.SecretSealer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Upstream api keys at rest (SPEC §1): AES-256-GCM, a random 12-byte IV per seal, the account id
 * as associated data (so a cipher copied onto another account row does not open), stored as
 * {@code v1:} + base64(iv ‖ ciphertext ‖ 16-byte tag).
 */
public final class SecretBox implements SecretSealer {
    public static final String VERSION_PREFIX = "v1:";
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    public SecretBox(byte[] masterKey) {
        if (masterKey == null || masterKey.length != 32) {
            throw new IllegalArgumentException("the master key must be 32 bytes");
        }
        this.key = new SecretKeySpec(masterKey.clone(), "AES");
    }

    @Override
    public String seal(String plaintext, long accountId) {
        byte[] iv = new byte[IV_BYTES];
        RANDOM.nextBytes(iv);
        try {
            Cipher cipher = cipher(Cipher.ENCRYPT_MODE, iv, accountId);
            byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
            byte[] out = ByteBuffer.allocate(iv.length + sealed.length).put(iv).put(sealed).array();
            return VERSION_PREFIX + Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is unavailable", e);
        }
    }

    /** Opens a value sealed for this account id; tampering, a wrong key or a wrong id fail. */
    @Override
    public String open(String stored, long accountId) {
        if (stored == null || !stored.startsWith(VERSION_PREFIX)) {
            throw new SecretBoxException("unknown secret format");
        }
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(stored.substring(VERSION_PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new SecretBoxException("secret is not base64");
        }
        if (raw.length < IV_BYTES + TAG_BITS / 8) {
            throw new SecretBoxException("secret is too short");
        }
        try {
            byte[] iv = java.util.Arrays.copyOfRange(raw, 0, IV_BYTES);
            Cipher cipher = cipher(Cipher.DECRYPT_MODE, iv, accountId);
            byte[] plain = cipher.doFinal(raw, IV_BYTES, raw.length - IV_BYTES);
            return new String(plain, StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new SecretBoxException("secret does not open (tampered, wrong key or wrong account)");
        }
    }

    private Cipher cipher(int mode, byte[] iv, long accountId) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, iv));
        cipher.updateAAD(associatedData(accountId));
        return cipher;
    }

    /** The AAD is the decimal account id in UTF-8 ("42"). */
    static byte[] associatedData(long accountId) {
        return Long.toString(accountId).getBytes(StandardCharsets.UTF_8);
    }

    /** A sealed secret that cannot be opened; never carries the secret itself. */
    public static final class SecretBoxException extends RuntimeException {
        public SecretBoxException(String message) {
            super(message);
        }
    }
}
