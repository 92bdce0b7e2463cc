package dev.detour.adapter.crypto;

import dev.detour.admin.port.PasswordCheck;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Console passwords (U-1): PBKDF2-HMAC-SHA256, random 16-byte salt, stored as
 * {@code pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>}. The iteration count travels with the
 * hash so it can be raised later without breaking stored passwords.
 */
public final class PasswordHasher implements PasswordCheck {
    /** OWASP 2023 minimum for PBKDF2-HMAC-SHA256. */
    public static final int ITERATIONS = 210_000;
    private static final String SCHEME = "pbkdf2-sha256";
    private static final int SALT_BYTES = 16;
    private static final int HASH_BITS = 256;

    private final SecureRandom random;
    private final int iterations;

    public PasswordHasher() {
        this(new SecureRandom(), ITERATIONS);
    }

    PasswordHasher(SecureRandom random, int iterations) {
        this.random = random;
        this.iterations = iterations;
    }

    @Override
    public String hash(String password) {
        byte[] salt = new byte[SALT_BYTES];
        random.nextBytes(salt);
        byte[] hash = derive(password, salt, iterations);
        Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
        return SCHEME + "$" + iterations + "$" + b64.encodeToString(salt) + "$" + b64.encodeToString(hash);
    }

    /** True when the password matches; a malformed stored value never matches. Constant-time compare. */
    @Override
    public boolean verify(String password, String stored) {
        String[] parts = stored == null ? new String[0] : stored.split("\\$");
        if (password == null || password.isEmpty() || parts.length != 4 || !parts[0].equals(SCHEME)) {
            return false;
        }
        try {
            int storedIterations = Integer.parseInt(parts[1]);
            if (storedIterations < 1) {
                return false;
            }
            byte[] salt = Base64.getDecoder().decode(parts[2]);
            byte[] expected = Base64.getDecoder().decode(parts[3]);
            return MessageDigest.isEqual(expected, derive(password, salt, storedIterations));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The iteration count recorded in a stored hash, or 0 when it is not one of ours. */
    public static int iterationsOf(String stored) {
        String[] parts = stored.split("\\$");
        return parts.length == 4 && parts[0].equals(SCHEME) ? Integer.parseInt(parts[1]) : 0;
    }

    private static byte[] derive(String password, byte[] salt, int iterations) {
        PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, iterations, HASH_BITS);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 is missing from this JVM", e);
        } finally {
            spec.clearPassword();
        }
    }
}
