package dev.detour.core.failure;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/** F-6: the fingerprint that tells "the same illness recurring" from one-off jitter. */
public final class Fingerprint {
    private Fingerprint() {
    }

    /** {@code sha256:} + hex SHA-256 of {@code semantic_response_failed|<status or none>|<normalized message>}. */
    public static String of(Integer status, String message) {
        String input = "semantic_response_failed|" + (status == null ? "none" : status.toString()) + "|"
                + normalize(message);
        return "sha256:" + HexFormat.of().formatHex(sha256(input));
    }

    /** Split on whitespace, joined by single spaces, lower-cased. */
    static String normalize(String message) {
        if (message == null) {
            return "";
        }
        return String.join(" ", message.trim().split("\\s+")).toLowerCase(Locale.ROOT);
    }

    private static byte[] sha256(String input) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(input.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK ships SHA-256", e);
        }
    }
}
