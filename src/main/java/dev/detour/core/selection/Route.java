package dev.detour.core.selection;

import dev.detour.core.account.Account;

/**
 * An account that passed S-1 steps 1–4: it serves the request under {@code upstreamModel}, charged
 * to {@code modelKey} (both null for a request without a model).
 */
public record Route(Account account, String upstreamModel, String modelKey) {
}
