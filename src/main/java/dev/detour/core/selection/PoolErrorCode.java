package dev.detour.core.selection;

/**
 * Why a request has nowhere to go, with the HTTP status the client sees (P-8: pool failures are
 * 502 whatever the upstream said; S-9: a halted pool and S-5 a full one are 503 with Retry-After; K-2: a model the
 * key may not use is 403). {@code ALL_FAILED} is not produced by selection: the attempt loop
 * uses it when every candidate of a plan failed.
 */
public enum PoolErrorCode {
    NO_ACCOUNTS("route_pool.no_accounts", 502),
    MODEL_UNMATCHED("route_pool.model_unmatched", 502),
    MODEL_UNAVAILABLE("route_pool.model_unavailable", 502),
    NO_ELIGIBLE_ROUTE("route_pool.no_eligible_route", 502),
    HALTED("route_pool.halted", 503),
    ALL_FAILED("route_pool.all_failed", 502),
    /** S-5: every candidate was at its in-flight limit and none was tried: busy, not broken (Retry-After 1). */
    AT_CAPACITY("route_pool.at_capacity", 503),
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
