package dev.detour.adapter.crypto;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The bearer token of {@code /admin/api} (SPEC §9). Only its SHA-256 digest is kept; a presented
 * token is hashed and compared with {@link MessageDigest#isEqual}, which takes the same time
 * wherever the digests differ, so response timing reveals nothing about the token.
 */
public final class AdminToken {
    private final byte[] digest;

    private AdminToken(byte[] digest) {
        this.digest = digest;
    }

    public static AdminToken ofPlain(String token) {
        return new AdminToken(sha256(token));
    }

    public static AdminToken ofHexDigest(String hex) {
        return new AdminToken(HexFormat.of().parseHex(hex));
    }

    /** A fresh token: {@code dta-} + 32 random bytes, url-safe base64. */
    public static String generate() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return "dta-" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    public boolean matches(String presented) {
        if (presented == null) {
            return false;
        }
        // constant time: both sides are 32-byte digests, compared without an early exit
        return MessageDigest.isEqual(digest, sha256(presented));
    }

    public String hexDigest() {
        return HexFormat.of().formatHex(digest);
    }

    public static String hexDigestOf(String token) {
        return HexFormat.of().formatHex(sha256(token));
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is unavailable", e);
        }
    }
}
