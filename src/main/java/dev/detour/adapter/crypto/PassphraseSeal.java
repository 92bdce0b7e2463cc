package dev.detour.adapter.crypto;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * W-2: upstream keys in an export document, sealed with a person's passphrase, never in plain text. The key
 * is derived with PBKDF2-HMAC-SHA256 ({@value #ITERATIONS} iterations, OWASP's 2023 figure for this KDF, a
 * fresh 16-byte salt per document); each value is sealed with AES-256-GCM under a fresh 12-byte nonce and
 * bound to its account's name (associated data), so a sealed key moved onto another account does not open.
 * A sealed known text ({@code check}) tells a wrong passphrase apart from a damaged value.
 */
public final class PassphraseSeal {
    public static final String KDF = "PBKDF2-HMAC-SHA256";
    public static final String CIPHER = "AES-256-GCM";
    public static final int ITERATIONS = 600_000;
    public static final int MIN_PASSPHRASE = 12;
    private static final String CHECK_TEXT = "detour-export";
    private static final SecureRandom RANDOM = new SecureRandom();
    private final SecretKeySpec key;
    private final byte[] salt;
    private final int iterations;

    /** What a document carries so the same passphrase derives the same key on another server. */
    public record Params(String kdf, int iterations, String salt, String cipher, String check) {
    }

    /** Thrown when a value does not open: the wrong passphrase, or a changed value. */
    public static final class WrongPassphrase extends RuntimeException {
        WrongPassphrase(String message) {
            super(message);
        }
    }

    private PassphraseSeal(char[] passphrase, byte[] salt, int iterations) {
        this.salt = salt.clone();
        this.iterations = iterations;
        try {
            PBEKeySpec spec = new PBEKeySpec(passphrase, salt, iterations, 256);
            byte[] derived = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
            spec.clearPassword();
            this.key = new SecretKeySpec(derived, "AES");
            Arrays.fill(derived, (byte) 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks PBKDF2WithHmacSHA256", e);
        }
    }

    /** A new seal for an export: a fresh salt. */
    public static PassphraseSeal create(String passphrase) {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        return new PassphraseSeal(passphrase.toCharArray(), salt, ITERATIONS);
    }

    /** The seal of an existing document; {@link WrongPassphrase} when the passphrase does not open its check. */
    public static PassphraseSeal open(String passphrase, Params params) {
        if (!KDF.equals(params.kdf()) || !CIPHER.equals(params.cipher()) || params.iterations() < 100_000
                || params.iterations() > 10_000_000 || params.salt() == null) {
            throw new IllegalArgumentException("unknown key protection: " + params.kdf() + " / " + params.cipher());
        }
        PassphraseSeal seal = new PassphraseSeal(passphrase.toCharArray(), decode(params.salt()), params.iterations());
        if (!CHECK_TEXT.equals(seal.open(params.check(), CHECK_TEXT))) {
            throw new WrongPassphrase("the passphrase does not open this document's keys");
        }
        return seal;
    }

    public Params params() {
        return new Params(KDF, iterations, Base64.getEncoder().encodeToString(salt), CIPHER,
                seal(CHECK_TEXT, CHECK_TEXT));
    }

    /** nonce ‖ ciphertext ‖ tag, base64. */
    public String seal(String plaintext, String boundTo) {
        try {
            byte[] nonce = new byte[12];
            RANDOM.nextBytes(nonce);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
            cipher.updateAAD(boundTo.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
            byte[] out = new byte[nonce.length + sealed.length];
            System.arraycopy(nonce, 0, out, 0, nonce.length);
            System.arraycopy(sealed, 0, out, nonce.length, sealed.length);
            return Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed", e);
        }
    }

    public String open(String sealed, String boundTo) {
        byte[] in = sealed == null ? new byte[0] : decode(sealed);
        if (in.length < 12 + 16) {
            throw new WrongPassphrase("a sealed key is damaged");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, in, 0, 12));
            cipher.updateAAD(boundTo.getBytes(StandardCharsets.UTF_8));
            return new String(cipher.doFinal(in, 12, in.length - 12), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new WrongPassphrase("a sealed key does not open with this passphrase");
        }
    }

    private static byte[] decode(String base64) {
        try {
            return Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new WrongPassphrase("a sealed value is not base64");
        }
    }
}
