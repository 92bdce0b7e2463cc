package dev.detour.core.cooldown;

import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.failure.Failure;
import java.time.Duration;
import java.time.Instant;

/** C-1 / C-4: when a cooling scope may be used again, or null when nothing is written. */
public final class CooldownWindow {
    private CooldownWindow() {
    }

    /**
     * The end of the cooldown for this failure: now + cooldown_seconds when cooldown is on; with
     * honor_retry_after and an upstream hint, the later of that and the hint capped at
     * retry_after_cap_seconds.
     *
     * <p>Choice (C-4): an honored hint is applied even when cooldown_enabled is off. The upstream has
     * said exactly when it will answer again, so sending more traffic before then only burns requests
     * (smart-router: "上游明确给出 Retry-After 时尊重它"); honor_retry_after is the switch that turns it
     * off. Without a hint, cooldown off writes no timestamp anywhere (seed).
     */
    public static Instant until(FailurePolicy policy, Failure failure, Instant now) {
        Instant base = policy.cooldownEnabled() ? now.plusSeconds(policy.cooldownSeconds()) : null;
        Instant hint = honoredHint(policy, failure, now);
        if (hint == null) {
            return base;
        }
        Instant capped = min(hint, now.plus(Duration.ofSeconds(policy.retryAfterCapSeconds())));
        return AccountFailureState.later(base, capped);
    }

    /** The uncapped upstream reset moment when it is honored and still ahead, else null. */
    public static Instant honoredHint(FailurePolicy policy, Failure failure, Instant now) {
        if (!policy.honorRetryAfter() || failure.retryAt() == null || !failure.retryAt().isAfter(now)) {
            return null;
        }
        return failure.retryAt();
    }

    /**
     * C-4': the part of the cooldown the upstream itself stated — a 429 whose honored Retry-After or
     * reset hint is ahead, capped at retry_after_cap_seconds — or null when the window is Detour's own.
     */
    public static Instant statedUntil(FailurePolicy policy, Failure failure, Instant now) {
        Instant hint = failure.rateLimited() ? honoredHint(policy, failure, now) : null;
        return hint == null ? null : min(hint, now.plus(Duration.ofSeconds(policy.retryAfterCapSeconds())));
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
