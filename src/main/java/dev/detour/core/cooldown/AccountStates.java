package dev.detour.core.cooldown;

import dev.detour.core.account.AccountFailureState;
import dev.detour.core.failure.Failure;
import java.time.Instant;

/** Copy-with helpers over the account-level failure columns (a 12-field record). */
final class AccountStates {
    private AccountStates() {
    }

    /** last_failure_kind/message/response_json, written for every recorded failure. */
    static AccountFailureState recordLast(AccountFailureState s, Failure f) {
        return new AccountFailureState(s.transientFailureCount(), s.nextRetryAt(), s.cooldownUntil(),
                f.kind().wire(), f.message(), f.responseBody(), s.semanticStreakCount(),
                s.semanticStreakFingerprint(), s.breakerFailureStreak(), s.breakerStep(), s.breakerOpenUntil(),
                s.backoffStreak());
    }

    static AccountFailureState countTransient(AccountFailureState s) {
        return new AccountFailureState(s.transientFailureCount() + 1, s.nextRetryAt(), s.cooldownUntil(),
                s.lastFailureKind(), s.lastFailureMessage(), s.lastFailureResponse(), s.semanticStreakCount(),
                s.semanticStreakFingerprint(), s.breakerFailureStreak(), s.breakerStep(), s.breakerOpenUntil(),
                s.backoffStreak());
    }

    /** next_retry_at and cooldown_until are always written together (seed). */
    static AccountFailureState coolUntil(AccountFailureState s, Instant until) {
        return new AccountFailureState(s.transientFailureCount(), until, until, s.lastFailureKind(),
                s.lastFailureMessage(), s.lastFailureResponse(), s.semanticStreakCount(),
                s.semanticStreakFingerprint(), s.breakerFailureStreak(), s.breakerStep(), s.breakerOpenUntil(),
                s.backoffStreak());
    }

    static AccountFailureState withStreak(AccountFailureState s, Streak streak) {
        return new AccountFailureState(s.transientFailureCount(), s.nextRetryAt(), s.cooldownUntil(),
                s.lastFailureKind(), s.lastFailureMessage(), s.lastFailureResponse(), streak.count(),
                streak.fingerprint(), s.breakerFailureStreak(), s.breakerStep(), s.breakerOpenUntil(),
                s.backoffStreak());
    }

    /** F-5: the quota channel is "not this cycle", not "retry later". */
    static AccountFailureState clearTransient(AccountFailureState s) {
        return new AccountFailureState(0, null, null, s.lastFailureKind(), s.lastFailureMessage(),
                s.lastFailureResponse(), s.semanticStreakCount(), s.semanticStreakFingerprint(),
                s.breakerFailureStreak(), s.breakerStep(), s.breakerOpenUntil(), s.backoffStreak());
    }

    static Streak streak(AccountFailureState s) {
        return new Streak(s.semanticStreakCount(), s.semanticStreakFingerprint());
    }
}
