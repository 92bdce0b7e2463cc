package dev.detour.gateway.wire;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Detour keys are stored and looked up only as SHA-256 hex (SPEC §1). */
public final class KeyHashes {
    /**
     * Every request hashes its key: a copy of one untouched digest skips the provider lookup
     * {@code MessageDigest.getInstance} makes each time (two thirds of the hash's cost, docs/performance.md).
     */
    private static final MessageDigest PROTOTYPE = newDigest();

    private KeyHashes() {
    }

    public static String sha256Hex(String key) {
        return HexFormat.of().formatHex(digest().digest(key.getBytes(StandardCharsets.UTF_8)));
    }

    private static MessageDigest digest() {
        try {
            return (MessageDigest) PROTOTYPE.clone();
        } catch (CloneNotSupportedException e) {
            return newDigest(); // a provider whose digest cannot be copied: looked up each time, as before
        }
    }

    private static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
