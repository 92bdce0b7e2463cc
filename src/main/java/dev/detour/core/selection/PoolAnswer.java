package dev.detour.core.selection;

import dev.detour.core.failure.Failure;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * P-8': what a client is told when the pool gives no answer — HTTP status, the envelope's
 * {@code error.type} for the client's protocol and {@code Retry-After} (0 = none). {@code error.code}
 * stays the stable Detour code in every case; only status, type and Retry-After follow the cause, so
 * the official SDKs and agents react as they do to the real API (404: fail at once; 429: wait the
 * Retry-After; 503/529: retry later; 502: a mix, nothing better to say).
 *
 * @param status            the HTTP status
 * @param code              Detour's stable {@code error.code}
 * @param type              the envelope's {@code error.type}, or null for the endpoint family's default
 * @param retryAfterSeconds seconds for {@code Retry-After} (≥ 1), or 0 for no header
 */
public record PoolAnswer(int status, String code, String type, long retryAfterSeconds) {

    /** The cause class of one failed attempt. */
    public enum Cause { RATE_LIMIT, OVERLOAD, OTHER }

    /** One account that was tried and failed, and when its route is usable again (null: at once). */
    public record FailedAttempt(Failure failure, Instant usableAt) {
    }

    /** Anthropic's status for "overloaded" (its clients retry it and name it so). */
    public static final int ANTHROPIC_OVERLOADED = 529;

    /**
     * A 429 (not quota) is a rate limit; an overload answer, any 5xx or a transport failure (no status)
     * is an overload; everything else (401/403, quota, permanent, 408, a failure body inside a 2xx) is other.
     */
    public static Cause causeOf(Failure failure) {
        if (failure.rateLimited()) {
            return Cause.RATE_LIMIT;
        }
        if (failure.quota() || failure.isPermanent()) {
            return Cause.OTHER;
        }
        Integer status = failure.status();
        return failure.overloaded() || status == null || status >= 500 ? Cause.OVERLOAD : Cause.OTHER;
    }

    /** A refusal before any attempt: the code's own status (404, 503, 429, …) with the protocol's type. */
    public static PoolAnswer refusal(PoolErrorCode error, boolean anthropic, long retryAfterSeconds) {
        int status = error.httpStatus();
        long retryAfter = status == 429 ? Math.max(1, retryAfterSeconds) : Math.max(0, retryAfterSeconds);
        return new PoolAnswer(status, error.code(), typeFor(status, anthropic), retryAfter);
    }

    /** As below, with no other (untried, cooling) route to consider. */
    public static PoolAnswer afterAttempts(List<FailedAttempt> attempts, boolean anthropic, Instant now) {
        return afterAttempts(attempts, anthropic, now, null);
    }

    /**
     * Every tried candidate failed ({@code route_pool.all_failed}): all on a rate limit → 429 with the
     * seconds until the soonest route is usable (at least 1); all on overload/5xx/transport → 503
     * (Anthropic callers 529 {@code overloaded_error}) with that Retry-After when some route has a
     * known recovery time; a mix, another cause or no attempt at all → 502.
     *
     * @param otherRouteUsableAt when the soonest route that was not tried (left out while cooling) is
     *                           usable again, or null — it may come back before the failed ones
     */
    public static PoolAnswer afterAttempts(List<FailedAttempt> attempts, boolean anthropic, Instant now,
            Instant otherRouteUsableAt) {
        String code = PoolErrorCode.ALL_FAILED.code();
        Cause cause = commonCause(attempts);
        // a left-out route whose window ended while this request ran is usable now
        Instant other = otherRouteUsableAt == null || otherRouteUsableAt.isAfter(now) ? otherRouteUsableAt : now;
        if (cause == Cause.RATE_LIMIT) {
            return new PoolAnswer(429, code, typeFor(429, anthropic),
                    Math.max(1, secondsToSoonest(attempts, other, now)));
        }
        if (cause == Cause.OVERLOAD) {
            int status = anthropic ? ANTHROPIC_OVERLOADED : 503;
            boolean known = other != null || attempts.stream().anyMatch(a -> a.usableAt() != null);
            return new PoolAnswer(status, code, typeFor(status, anthropic),
                    known ? Math.max(1, secondsToSoonest(attempts, other, now)) : 0);
        }
        return new PoolAnswer(PoolErrorCode.ALL_FAILED.httpStatus(), code, typeFor(502, anthropic), 0);
    }

    /** The one cause all attempts share, or OTHER for a mix or none. */
    static Cause commonCause(List<FailedAttempt> attempts) {
        Cause common = null;
        for (FailedAttempt a : attempts) {
            Cause c = causeOf(a.failure());
            if (common != null && common != c) {
                return Cause.OTHER;
            }
            common = c;
        }
        return common == null ? Cause.OTHER : common;
    }

    /** Whole seconds (rounded up) until the soonest route is usable; a route usable at once counts as now. */
    private static long secondsToSoonest(List<FailedAttempt> attempts, Instant other, Instant now) {
        Instant soonest = other;
        for (FailedAttempt a : attempts) {
            Instant at = a.usableAt() == null || a.usableAt().isBefore(now) ? now : a.usableAt();
            soonest = soonest == null || at.isBefore(soonest) ? at : soonest;
        }
        return soonest == null ? 0 : (Duration.between(now, soonest).toMillis() + 999) / 1000;
    }

    /**
     * The envelope type by status and protocol: Anthropic 404 {@code not_found_error}, 429
     * {@code rate_limit_error}, 529 {@code overloaded_error}; OpenAI 404 {@code invalid_request_error}
     * (what its API answers for an unknown model), 429 {@code rate_limit_error}. Null: the family's default.
     */
    static String typeFor(int status, boolean anthropic) {
        return switch (status) {
            case 404 -> anthropic ? "not_found_error" : "invalid_request_error";
            case 429 -> "rate_limit_error";
            case ANTHROPIC_OVERLOADED -> anthropic ? "overloaded_error" : null;
            default -> null;
        };
    }
}
