package dev.detour.core.failure;

import java.time.Duration;
import java.time.Instant;

/**
 * One classified failure (F-1 … F-7), ready for {@code CooldownRules.afterFailure}.
 *
 * @param failureClass transient, permanent, or none (a client error: no state change)
 * @param kind         the F-2 label stored as last_failure_kind
 * @param scope        the F-3 layer charged
 * @param modelKey     the model key charged (null for no model)
 * @param status       the upstream status, or null for transport failures
 * @param errorCode    error code from the envelope (F-4 fields), or null
 * @param errorType    error type from inside the error object (never the envelope's), or null
 * @param message      last_failure_message, at most {@value #MAX_MESSAGE} characters
 * @param responseBody last_failure_response_json, at most {@value #MAX_BODY} characters + "…" when cut
 * @param fingerprint  F-6 streak fingerprint of (status, message)
 * @param quota        the F-5 quota-exhaustion channel
 * @param rateLimited  HTTP 429 (group halt: rate limit, S-9)
 * @param unreachable  connection refused / unknown host (group halt: unreachable, F-7)
 * @param billing      HTTP 402 or quota exhaustion (group halt: billing, F-7)
 * @param overloaded   the upstream said it is overloaded (529 or "overloaded"): never flips a status
 * @param retryAt      C-4 reset hint (Retry-After and friends), uncapped; null when none
 * @param retryAfter   retryAt minus the classification time, or null
 */
public record Failure(
        FailureClass failureClass,
        FailureKind kind,
        Scope scope,
        String modelKey,
        Integer status,
        String errorCode,
        String errorType,
        String message,
        String responseBody,
        String fingerprint,
        boolean quota,
        boolean rateLimited,
        boolean unreachable,
        boolean billing,
        boolean overloaded,
        Instant retryAt,
        Duration retryAfter) {

    public static final int MAX_MESSAGE = 512;
    public static final int MAX_BODY = 8192;
    public static final String TRUNCATED_STREAM_MESSAGE =
            "stream disconnected before completion: stream closed before response.completed";

    public boolean isTransient() {
        return failureClass == FailureClass.TRANSIENT;
    }

    public boolean isPermanent() {
        return failureClass == FailureClass.PERMANENT;
    }

    /**
     * Whether the same account may be tried again (P-3): transient only, never on 401/403 (it trips
     * abuse controls), never for quota (deterministic: move to the next account), never on a 429
     * (C-4': the upstream asked for less traffic, not the same request again at once).
     */
    public boolean retrySameAccount() {
        return isTransient() && !quota && !(status != null && (status == 401 || status == 403 || status == 429));
    }

    /**
     * C-4': as {@link #retrySameAccount()}, and never when the upstream named a wait (Retry-After or,
     * on a 429/quota answer, a reset hint) longer than the policy's retry interval — retrying after
     * {@code retryInterval} would only hit the same closed door.
     */
    public boolean retrySameAccount(Duration retryInterval) {
        return retrySameAccount() && (retryAfter == null || retryAfter.compareTo(retryInterval) <= 0);
    }

    /**
     * F-6 / SPEC example (a model row after one 429 has streak 0): rate limits and overload are
     * capacity, not a broken model, so they cool but never feed the streak that flips a row to error.
     */
    public boolean countsTowardStreak() {
        return scope == Scope.MODEL && isTransient() && !rateLimited && !overloaded;
    }

    static String cutMessage(String message) {
        if (message == null) {
            return null;
        }
        return message.length() <= MAX_MESSAGE ? message : message.substring(0, MAX_MESSAGE);
    }

    static String cutBody(String body) {
        if (body == null || body.isEmpty()) {
            return null;
        }
        return body.length() <= MAX_BODY ? body : body.substring(0, MAX_BODY) + "…";
    }
}
