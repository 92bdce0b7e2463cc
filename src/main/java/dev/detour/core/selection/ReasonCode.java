package dev.detour.core.selection;

import java.util.Locale;

/**
 * Every stable, machine-readable decision reason of SPEC §5 (the UI translates them). The wire
 * form is the lower-snake name, e.g. {@code selected_priority}.
 */
public enum ReasonCode {
    SELECTED_PRIORITY,
    SELECTED_WEIGHTED,
    SELECTED_LOWEST_PRICE,
    SELECTED_MOST_STABLE,
    SELECTED_FASTEST,
    SELECTED_BALANCED,
    SELECTED_MANUAL_ORDER,
    KEPT_SESSION_AFFINITY,
    KEPT_CACHE_AFFINITY,
    PROBE_FALLBACK_SOONEST_RECOVERY,
    CAPACITY_OVERFLOW_TO_NEXT,
    REJECTED_MODEL_NOT_ALLOWED,
    REJECTED_GROUP_SCOPE,
    REJECTED_RATIO_CEILING,
    REJECTED_CONTRACT_MISMATCH,
    REJECTED_MODEL_UNMAPPED,
    REJECTED_MODEL_PAUSED,
    REJECTED_MODEL_ERROR,
    REJECTED_COOLING,
    REJECTED_ACCOUNT_STATUS,
    REJECTED_ADMIN_BLOCK,
    REJECTED_GROUP_HALTED,
    RETRY_SAME_ACCOUNT,
    SWITCHED_AFTER_FAILURE,
    RETRY_STOPPED_AFTER_COMMIT,
    RETURNED_CLIENT_ERROR,
    /** P-10': continues server-side state Detour has no binding for: one account, never replayed on another. */
    STATE_BOUND_UNKNOWN,
    /** B-3: the request uses a feature this account's protocol cannot carry; another account may serve it. */
    REJECTED_BRIDGE_UNSUPPORTED;

    /** Kept, not derived per call: every request event carries one (a lower-case copy showed in the profile). */
    private final String wire = name().toLowerCase(Locale.ROOT);

    public String wire() {
        return wire;
    }

    /**
     * A rejection of an account that could never have served the request: another model, another endpoint,
     * outside the key's groups or models. Naming each under every request hides the routes that matter, and
     * it grew each request's event with the pool (N-10: 1,000 accounts, ~1,000 entries journaled and written
     * per request); a request that was served records only the routes that could have served it.
     */
    public boolean neverCouldServe() {
        return this == REJECTED_MODEL_UNMAPPED || this == REJECTED_CONTRACT_MISMATCH || this == REJECTED_GROUP_SCOPE
                || this == REJECTED_MODEL_NOT_ALLOWED;
    }

    /** The code for a stored wire value, or null when it is unknown (an older or newer build wrote it). */
    public static ReasonCode fromWire(String value) {
        for (ReasonCode c : values()) {
            if (c.wire().equals(value)) {
                return c;
            }
        }
        return null;
    }
}
