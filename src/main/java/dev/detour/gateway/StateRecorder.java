package dev.detour.gateway;

import dev.detour.core.account.Account;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import dev.detour.core.failure.Failure;
import dev.detour.core.selection.ModelStateKey;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies verdicts to pool state: durably through the {@link PoolStore}, then at once to this
 * instance's snapshot. Success writes nothing when there is nothing to clear (C-5, N-2).
 */
public final class StateRecorder {
    private static final Logger log = LoggerFactory.getLogger(StateRecorder.class);
    private final PoolStore store;
    private final PoolSnapshot snapshot;
    private final java.util.concurrent.atomic.AtomicLong escalations = new java.util.concurrent.atomic.AtomicLong();

    public StateRecorder(PoolStore store, PoolSnapshot snapshot) {
        this.store = store;
        this.snapshot = snapshot;
    }

    public void onFailure(Account account, String modelKey, Failure failure, Instant now) {
        try {
            PoolStore.StateChange change = store.recordFailure(account.id(), modelKey, failure, now);
            if (change.escalated()) {
                escalations.incrementAndGet();
                log.info("account {} escalated to an account cooldown: every serviceable model is unavailable",
                        account.id());
            }
            snapshot.apply(change);
        } catch (RuntimeException e) {
            log.error("failure of account {} could not be recorded: {}", account.id(), e.toString());
        }
    }

    /** C-3 escalations recorded by this instance since start. */
    public long escalations() {
        return escalations.get();
    }

    public void onSuccess(Account account, String modelKey, Instant now) {
        if (!somethingToClear(account.id(), modelKey)) {
            return;
        }
        try {
            snapshot.apply(store.recordSuccess(account.id(), modelKey, false, now));
        } catch (RuntimeException e) {
            log.error("success of account {} could not be recorded: {}", account.id(), e.toString());
        }
    }

    private boolean somethingToClear(long accountId, String modelKey) {
        PoolSnapshot.View view = snapshot.view();
        Account current = view.byId().get(accountId);
        if (current != null && !current.failure().isClean()) {
            return true;
        }
        ModelState row = modelKey == null ? null : view.models().get(new ModelStateKey(accountId, modelKey));
        if (row == null) {
            return false;
        }
        // a paused row survives success with its failure fields reset: only write when there are some
        return row.status() != ModelStatus.PAUSED || row.hasFailureTrace();
    }
}
