package dev.detour.core.failure;

import dev.detour.core.secret.SecretMask;
import java.time.Duration;
import java.time.Instant;

/**
 * F-1 … F-7: turns the facts of one attempt into a {@link Verdict}. Order of judgement (F-4):
 * (a) quota exhaustion on any status → (b) permanent text → (c) non-2xx status rules →
 * (d) 2xx body check (structural envelope, first SSE data frame, plain-text phrases, truncation) →
 * (e) success. Pure and total: never throws on any body.
 */
public final class FailureClassifier {
    static final String EMPTY_BODY_MESSAGE = "upstream returned an empty body";

    private FailureClassifier() {
    }

    public static Verdict classify(AttemptFacts facts, Instant now) {
        if (facts.status() == null) {
            return Verdict.failed(transportFailure(facts, now));
        }
        int status = facts.status();
        boolean success = status >= 200 && status < 300;
        BodyReading body = BodyReading.of(facts);
        String upstreamMessage = body.upstreamMessage();
        UpstreamErrorFields env = body.envelope();
        if (FailureTexts.isQuotaExhausted(status, env.code(), env.type(), upstreamMessage)) {
            return Verdict.failed(quota(facts, body, upstreamMessage));
        }
        if (FailureTexts.isPermanentText(body.errorText(!success, facts.body()))) {
            String message = upstreamMessage != null ? upstreamMessage : statusMessage(status);
            return Verdict.failed(build(FailureClass.PERMANENT, statusKind(facts), Scope.ACCOUNT, facts, body,
                    message, null, now));
        }
        if (!success) {
            return statusVerdict(facts, body, upstreamMessage, now);
        }
        return successBodyVerdict(facts, body, upstreamMessage, now);
    }

    /**
     * A failure raised outside the answer itself (refresh, request_build, response_transform):
     * transient unless its text names a void credential; scope per F-3.
     */
    public static Failure ofKind(FailureKind kind, Integer status, String message, String modelKey) {
        AttemptFacts facts = new AttemptFacts(status, null, "", false, false, null, false, modelKey);
        boolean permanent = FailureTexts.isPermanentText(message);
        Scope scope = permanent ? Scope.ACCOUNT : ScopeRules.scopeOf(kind, status, modelKey);
        return build(permanent ? FailureClass.PERMANENT : FailureClass.TRANSIENT, kind, scope, facts,
                BodyReading.of(facts), message, null, null);
    }

    /** P-6: a stream that relayed data and ended without a terminal marker (recorded, never retried). */
    public static Failure truncatedStream(int status, String modelKey) {
        return ofKind(FailureKind.SEMANTIC_RESPONSE_TRANSIENT, status, Failure.TRUNCATED_STREAM_MESSAGE, modelKey);
    }

    private static Failure transportFailure(AttemptFacts facts, Instant now) {
        TransportError error = facts.transport();
        String message = error == null ? "no response from upstream" : error.message();
        FailureKind kind = facts.modelTest() ? FailureKind.MODEL_TEST : FailureKind.TRANSPORT;
        FailureClass cls = FailureTexts.isPermanentText(message) ? FailureClass.PERMANENT : FailureClass.TRANSIENT;
        return build(cls, kind, Scope.ACCOUNT, facts, BodyReading.of(facts), message, null, now);
    }

    private static Failure quota(AttemptFacts facts, BodyReading body, String upstreamMessage) {
        String message = upstreamMessage != null ? upstreamMessage : statusMessage(facts.status());
        // F-5: quota is an account property, whatever the model; no retry hint (a verdict, not a wait).
        return build(FailureClass.TRANSIENT, FailureKind.SEMANTIC_RESPONSE_FAILED, Scope.ACCOUNT, facts, body,
                message, null, null);
    }

    private static Verdict statusVerdict(AttemptFacts facts, BodyReading body, String upstreamMessage,
            Instant now) {
        int status = facts.status();
        FailureKind kind = statusKind(facts);
        Scope scope = ScopeRules.scopeOf(kind, status, facts.modelKey());
        if (status == 408 || status == 401 || status == 403 || status == 429 || status >= 500) {
            return Verdict.failed(build(FailureClass.TRANSIENT, kind, scope, facts, body, statusMessage(status),
                    upstreamMessage, now));
        }
        return Verdict.clientError(build(FailureClass.NONE, kind, scope, facts, body, statusMessage(status),
                upstreamMessage, null));
    }

    private static Verdict successBodyVerdict(AttemptFacts facts, BodyReading body, String upstreamMessage,
            Instant now) {
        String message;
        if (body.semanticFailure()) {
            UpstreamErrorFields env = body.envelope();
            message = upstreamMessage != null ? upstreamMessage
                    : env.code() != null ? env.code() : "upstream answered with a failure body";
        } else if (facts.truncated()) {
            message = Failure.TRUNCATED_STREAM_MESSAGE;
        } else if (facts.body().isBlank() && facts.status() != 204) {
            message = EMPTY_BODY_MESSAGE;
        } else {
            return Verdict.SUCCESS;
        }
        FailureKind kind = FailureKind.SEMANTIC_RESPONSE_TRANSIENT;
        Scope scope = ScopeRules.scopeOf(kind, facts.status(), facts.modelKey());
        return Verdict.failed(build(FailureClass.TRANSIENT, kind, scope, facts, body, message, upstreamMessage, now));
    }

    private static FailureKind statusKind(AttemptFacts facts) {
        if (facts.status() == null) {
            return facts.modelTest() ? FailureKind.MODEL_TEST : FailureKind.TRANSPORT;
        }
        boolean success = facts.status() >= 200 && facts.status() < 300;
        if (success) {
            return FailureKind.SEMANTIC_RESPONSE_FAILED;
        }
        return facts.modelTest() ? FailureKind.MODEL_TEST_STATUS : FailureKind.UPSTREAM_STATUS;
    }

    static String statusMessage(int status) {
        return "upstream returned " + status;
    }

    /** Assembles the record; {@code now} null means no retry hint is read. */
    private static Failure build(FailureClass cls, FailureKind kind, Scope scope, AttemptFacts facts,
            BodyReading body, String message, String upstreamMessage, Instant now) {
        Integer status = facts.status();
        UpstreamErrorFields env = body.envelope();
        // the upstream's words become stored, shown and logged text here: masked once, before the cut
        // (a cut key would match no rule; a masked one stays masked) and before the fingerprint
        String cutMessage = Failure.cutMessage(facts.mask().apply(message));
        boolean quota = kind == FailureKind.SEMANTIC_RESPONSE_FAILED && cls == FailureClass.TRANSIENT;
        boolean rateLimited = status != null && status == 429 && !quota;
        boolean unreachable = facts.transport() != null && facts.transport().type().unreachable();
        boolean billing = quota || (status != null && status == 402);
        boolean overloaded = FailureTexts.isOverloaded(status, upstreamMessage, env.type(), env.code());
        String hintText = upstreamMessage != null ? upstreamMessage : message;
        // C-4': reset hints lengthen a cooldown only on a 429 or a quota answer; Retry-After counts on any status
        boolean resetHintsCount = quota || (status != null && status == 429);
        Instant retryAt = now == null ? null : RetryHints.resetAt(facts.headers(), hintText, now, resetHintsCount);
        Duration retryAfter = retryAt == null ? null : Duration.between(now, retryAt);
        return new Failure(cls, kind, scope, facts.modelKey(), status, env.code(), env.type(), cutMessage,
                // only a window is masked (a failure body can be huge); its end is cut off again by cutBody
                Failure.cutBody(facts.mask().apply(SecretMask.cut(facts.body(), 2 * Failure.MAX_BODY))),
                Fingerprint.of(status, cutMessage), quota, rateLimited,
                unreachable, billing, overloaded, retryAt, retryAfter);
    }
}
