package dev.detour.gateway.port;

/** The decrypted upstream key of an account, asked for only when a request is built. */
@FunctionalInterface
public interface SecretLookup {
    String apiKey(long accountId);
}
