package dev.detour.core.cooldown;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.ModelState;
import dev.detour.core.failure.Failure;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * One recorded failure → the account's and its model row's next state: the C-3 denominator, the
 * C-2/C-4/F-5/F-6 cooldown rules, the C-6 breaker and backoff, in that order. The one composition
 * used twice (D-1): by the gateway at once on its in-memory snapshot, and by the store when it
 * writes the same failure durably, possibly later, on the state it reads under the row lock. Because
 * the durable write recomposes on the stored state instead of copying the in-memory result, state
 * another instance wrote meanwhile (its counts, streaks, windows) is built upon, never overwritten.
 */
public final class FailureTransition {
    /** C-3: a model the account served within this window before the failure counts as serviceable. */
    public static final Duration SERVED_WINDOW = Duration.ofHours(24);

    private FailureTransition() {
    }

    /** C-3: the served keys {@code apply} expects are those served since this moment. */
    public static Instant servedSince(Instant at) {
        return at.minus(SERVED_WINDOW);
    }

    /**
     * @param rows        every model row of the account as the caller knows it
     * @param servedKeys  model keys the account served lately (C-3 for accounts without mappings)
     * @param modelKey    the request's model key (may be null)
     * @param at          when the failure happened (a late write passes the original moment)
     */
    public static FailureOutcome apply(Account account, List<ModelState> rows, Collection<String> servedKeys,
            String modelKey, Failure failure, Instant at) {
        Set<String> serviceable = Escalation.serviceableKeys(account.mappings(),
                rows.stream().map(ModelState::modelKey).toList(), servedKeys, modelKey);
        FailureOutcome outcome = BreakerRules.afterFailure(account,
                CooldownRules.afterFailure(account, rows, serviceable, failure, at), failure, at);
        return keepLaterWindows(account, rows, outcome);
    }

    /**
     * D-1: a failure never shortens a window that is already running (one another instance wrote
     * after this failure happened, or a longer upstream-stated one): each until-time is the later of
     * the stored and the new one.
     */
    static FailureOutcome keepLaterWindows(Account account, List<ModelState> rows, FailureOutcome outcome) {
        if (!outcome.changed()) {
            return outcome;
        }
        AccountFailureState before = account.failure();
        AccountFailureState after = outcome.accountFailure();
        AccountFailureState merged = new AccountFailureState(after.transientFailureCount(),
                kept(before.nextRetryAt(), after.nextRetryAt()), kept(before.cooldownUntil(), after.cooldownUntil()),
                after.lastFailureKind(), after.lastFailureMessage(), after.lastFailureResponse(),
                after.semanticStreakCount(), after.semanticStreakFingerprint(), after.breakerFailureStreak(),
                after.breakerStep(), kept(before.breakerOpenUntil(), after.breakerOpenUntil()), after.backoffStreak());
        ModelState row = outcome.modelRow();
        if (row != null) {
            ModelState old = Escalation.find(rows, row.modelKey());
            if (old != null && row.cooldownUntil() != null && old.cooldownUntil() != null
                    && old.cooldownUntil().isAfter(row.cooldownUntil())) {
                row = new ModelState(row.accountId(), row.modelKey(), row.status(), row.transientFailureCount(),
                        old.cooldownUntil(), AccountFailureState.later(old.rateLimitResetAt(), row.rateLimitResetAt()),
                        row.semanticStreakCount(), row.semanticStreakFingerprint(), row.lastFailureKind(),
                        row.lastFailureMessage(), row.lastFailureResponse(), row.createdAt(), row.updatedAt(),
                        AccountFailureState.later(old.statedUntil(), row.statedUntil()));
            }
        }
        return new FailureOutcome(outcome.status(), merged, row, outcome.escalated(), true);
    }

    /** The later of two windows; a window the rules cleared (F-5 quota) stays cleared. */
    private static Instant kept(Instant before, Instant after) {
        return after == null ? null : AccountFailureState.later(before, after);
    }

    /** The account's model rows with the outcome's row in place (the in-memory twin of the store's upsert). */
    public static List<ModelState> rowsAfter(List<ModelState> rows, ModelState changed) {
        if (changed == null) {
            return rows;
        }
        List<ModelState> copy = new ArrayList<>();
        for (ModelState r : rows) {
            if (!r.modelKey().equals(changed.modelKey())) {
                copy.add(r);
            }
        }
        copy.add(changed);
        return copy;
    }

    /** The account's model rows after a success's row change (C-5: deleted, or a paused row reset). */
    public static List<ModelState> rowsAfter(List<ModelState> rows, RowChange change) {
        return switch (change.action()) {
            case DELETE -> rows.stream().filter(r -> !r.modelKey().equals(change.row().modelKey())).toList();
            case UPSERT -> rowsAfter(rows, change.row());
            default -> rows;
        };
    }
}
