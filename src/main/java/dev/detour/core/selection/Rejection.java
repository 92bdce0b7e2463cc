package dev.detour.core.selection;

import java.time.Instant;

/**
 * An account selection left out, and why — the request event's rejection summary and the key
 * holder's explanation (E-1). {@code until} is the recovery time for {@code rejected_cooling} and
 * {@code rejected_group_halted}, null otherwise.
 */
public record Rejection(long accountId, ReasonCode reason, Instant until) {

    public Rejection(long accountId, ReasonCode reason) {
        this(accountId, reason, null);
    }
}
