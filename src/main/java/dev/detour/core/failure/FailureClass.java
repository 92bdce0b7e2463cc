package dev.detour.core.failure;

/** F-1: the three classes an upstream answer can fall into. */
public enum FailureClass {
    /** Retry later / elsewhere: 408, 401, 403, 429, 5xx, no status, semantic failures. */
    TRANSIENT,
    /** The credential is void: the account is revoked with no backoff. */
    PERMANENT,
    /** The client's own request was at fault (400, 404, 422 …): no counter, no state change. */
    NONE
}
