package dev.detour.admin;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountFailureState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The computed {@code state} object of an account (SPEC §9), for the API and the console. Today
 * it shows what the account columns give; the model rows, reminders, rate-limit ledger and
 * in-flight count are added here when the gateway's state is available.
 */
public final class AccountStateView {
    private final Clock clock;

    public AccountStateView(Clock clock) {
        this.clock = clock;
    }

    /** Key order is the wire order; values are JSON-ready (String, Number, Boolean, null). */
    public Map<String, Object> describe(Account account) {
        Instant now = clock.instant();
        AccountFailureState f = account.failure();
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("status", account.status().wire());
        state.put("transient_failure_count", f.transientFailureCount());
        state.put("cooldown_remaining_s",
                remainingSeconds(AccountFailureState.later(f.nextRetryAt(), f.cooldownUntil()), now));
        state.put("breaker_remaining_s", remainingSeconds(f.breakerOpenUntil(), now));
        state.put("last_failure_kind", f.lastFailureKind());
        state.put("last_failure_message", f.lastFailureMessage());
        state.put("semantic_failure_streak", f.semanticStreakCount());
        return state;
    }

    /** Whole seconds left until {@code until}, rounded up so a badge never shows 0 while still cooling. */
    static long remainingSeconds(Instant until, Instant now) {
        if (until == null || !until.isAfter(now)) {
            return 0;
        }
        Duration left = Duration.between(now, until);
        return left.getSeconds() + (left.getNano() > 0 ? 1 : 0);
    }
}
