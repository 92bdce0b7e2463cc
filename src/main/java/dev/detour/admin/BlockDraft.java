package dev.detour.admin;

/**
 * An S-10 block rule as sent, before {@link BlockAdmin} checks it: the texts as given (a null value
 * is an empty one; a null or blank expiry is none).
 */
public record BlockDraft(String scope, String value, String reason, String expiresAt) {
}
