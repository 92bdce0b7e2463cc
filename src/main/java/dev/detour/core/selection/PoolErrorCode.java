package dev.detour.core.selection;

/**
 * Why a request has nowhere to go, with the HTTP status the client sees (P-8' revises P-8's blanket
 * 502 by cause: a model no account maps is 404 as on a real API, so agents fail at once instead of
 * retrying for minutes; a pool that has the model but cannot serve it now — unavailable, empty,
 * full (S-5), halted (S-9) — is 503; every candidate inside a window the upstream itself stated on a 429
 * is 429 with Retry-After (C-4'); K-2: a model the key may not use is 403). {@code ALL_FAILED} is not
 * produced by selection: the attempt loop uses it when every candidate of a plan failed, with the
 * status {@link PoolAnswer#afterAttempts} derives from the attempts' causes (502 only for a mix).
 */
public enum PoolErrorCode {
    NO_ACCOUNTS("route_pool.no_accounts", 503),
    MODEL_UNMATCHED("route_pool.model_unmatched", 404),
    MODEL_UNAVAILABLE("route_pool.model_unavailable", 503),
    NO_ELIGIBLE_ROUTE("route_pool.no_eligible_route", 502),
    HALTED("route_pool.halted", 503),
    ALL_FAILED("route_pool.all_failed", 502),
    /** S-5: every candidate was at its in-flight limit and none was tried: busy, not broken (Retry-After 1). */
    AT_CAPACITY("route_pool.at_capacity", 503),
    /** C-4': every candidate is inside a window its upstream stated on a 429; nobody is called. */
    RATE_LIMITED("route_pool.rate_limited", 429),
    KEY_MODEL_NOT_ALLOWED("key.model_not_allowed", 403);

    private final String code;
    private final int httpStatus;

    PoolErrorCode(String code, int httpStatus) {
        this.code = code;
        this.httpStatus = httpStatus;
    }

    /** The {@code error.code} of the client envelope. */
    public String code() {
        return code;
    }

    public int httpStatus() {
        return httpStatus;
    }
}
