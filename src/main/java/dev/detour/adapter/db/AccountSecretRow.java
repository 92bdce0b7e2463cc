package dev.detour.adapter.db;

/** The sealed api key of one account and its display hint. */
public record AccountSecretRow(long id, String apiKeyCipher, String apiKeyHint) {
}
