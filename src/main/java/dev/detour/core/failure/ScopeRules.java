package dev.detour.core.failure;

/** F-3: {@code is_account_scoped_failure}, defined once and shared by every recording site. */
public final class ScopeRules {
    private ScopeRules() {
    }

    /** The seed's table over the stored label; unknown labels park the account (over-parking is recoverable). */
    public static boolean isAccountScopedFailure(String kind, Integer status) {
        FailureKind k = FailureKind.fromWire(kind);
        if (k == null) {
            return true;
        }
        return switch (k) {
            // The credential itself, or the path to the upstream, is at fault.
            case REFRESH, REQUEST_BUILD, TRANSPORT, MODEL_TEST -> true;
            // A rejected key rejects every model; any other status is a verdict on one model.
            case UPSTREAM_STATUS, MODEL_TEST_STATUS -> status != null && (status == 401 || status == 403);
            // The upstream's content for this model is the problem.
            case SEMANTIC_RESPONSE_TRANSIENT, RESPONSE_TRANSFORM -> false;
            // Quota exhaustion is an account property.
            case SEMANTIC_RESPONSE_FAILED -> true;
        };
    }

    /** The scope a failure is charged to; without a model name it degrades to the account. */
    public static Scope scopeOf(FailureKind kind, Integer status, String modelKey) {
        if (modelKey == null || modelKey.isBlank()) {
            return Scope.ACCOUNT;
        }
        return isAccountScopedFailure(kind.wire(), status) ? Scope.ACCOUNT : Scope.MODEL;
    }
}
