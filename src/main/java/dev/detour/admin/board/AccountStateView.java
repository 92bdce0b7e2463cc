package dev.detour.admin.board;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountFailureState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongFunction;
import java.util.function.LongToIntFunction;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import dev.detour.core.cooldown.RateLimitLedger;
import dev.detour.core.failure.Reminders;

/**
 * The computed {@code state} object of an account (SPEC §9), for the API and the console:
 * account columns, every model row with its remaining cooldown, the unavailable count behind the
 * 模型 N 不可用 badge, F-8 reminders, the C-7 rate-limit ledger and the in-flight leases.
 */
public final class AccountStateView {
    private final Clock clock;
    private final LongFunction<List<ModelState>> modelRows;
    private final LongToIntFunction inFlight;

    public AccountStateView(Clock clock, LongFunction<List<ModelState>> modelRows, LongToIntFunction inFlight) {
        this.clock = clock;
        this.modelRows = modelRows;
        this.inFlight = inFlight;
    }

    /** Key order is the wire order; values are JSON-ready (String, Number, Boolean, null, lists, maps). */
    public Map<String, Object> describe(Account account) {
        Instant now = clock.instant();
        AccountFailureState f = account.failure();
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("status", account.shownStatus());
        state.put("transient_failure_count", f.transientFailureCount());
        state.put("cooldown_remaining_s",
                remainingSeconds(AccountFailureState.later(f.nextRetryAt(), f.cooldownUntil()), now));
        state.put("breaker_remaining_s", remainingSeconds(f.breakerOpenUntil(), now));
        // C-6: the streaks behind the breaker and the exponential backoff
        state.put("breaker_failure_streak", f.breakerFailureStreak());
        state.put("breaker_step", f.breakerStep());
        state.put("backoff_streak", f.backoffStreak());
        state.put("last_failure_kind", f.lastFailureKind());
        state.put("last_failure_message", f.lastFailureMessage());
        state.put("semantic_failure_streak", f.semanticStreakCount());
        List<ModelState> rows = modelRows.apply(account.id());
        state.put("unavailable_model_count", rows.stream().filter(r -> r.unavailableAt(now)).count());
        state.put("models", models(rows, now));
        Set<String> reminders = new TreeSet<>(Reminders.of(f.lastFailureResponse(), f.lastFailureMessage()));
        rows.forEach(r -> reminders.addAll(Reminders.of(r.lastFailureResponse(), r.lastFailureMessage())));
        state.put("reminders", List.copyOf(reminders));
        state.put("rate_limited_models", ledger(rows, now));
        state.put("in_flight", inFlight.applyAsInt(account.id()));
        return state;
    }

    private static List<Map<String, Object>> models(List<ModelState> rows, Instant now) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (ModelState r : rows) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("model_key", r.modelKey());
            m.put("status", r.status().wire());
            m.put("cooldown_remaining_s", remainingSeconds(r.cooldownUntil(), now));
            m.put("transient_failure_count", r.transientFailureCount());
            m.put("streak", r.semanticStreakCount());
            m.put("last_failure_kind", r.lastFailureKind());
            m.put("last_failure_message", r.lastFailureMessage());
            m.put("unavailable", r.status() != ModelStatus.OK || r.coolingAt(now));
            m.put("updated_at", r.updatedAt().toString());
            out.add(m);
        }
        return out;
    }

    /** C-7: reset_at is omitted when it equals the (capped) until. */
    private static List<Map<String, Object>> ledger(List<ModelState> rows, Instant now) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (RateLimitLedger.Entry e : RateLimitLedger.of(rows, now)) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("model", e.model());
            m.put("until", e.until().toString());
            if (e.resetAt() != null && !e.resetAt().equals(e.until())) {
                m.put("reset_at", e.resetAt().toString());
            }
            m.put("reason", e.reason());
            out.add(m);
        }
        return out;
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
