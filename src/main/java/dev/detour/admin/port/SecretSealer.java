package dev.detour.admin.port;

/**
 * X-5 at rest: seals an account's upstream key for storage and opens it again. Bound to the
 * account id, so a sealed key copied onto another account does not open.
 */
public interface SecretSealer {
    String seal(String plaintext, long accountId);

    /** The plain key; throws when the stored value does not open (tampered, wrong key or wrong account). */
    String open(String stored, long accountId);
}
