package dev.detour.gateway.live;

import dev.detour.core.account.Account;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import dev.detour.core.cooldown.FailureOutcome;
import dev.detour.core.cooldown.FailureTransition;
import dev.detour.core.cooldown.SuccessOutcome;
import dev.detour.core.cooldown.SuccessTransition;
import dev.detour.core.failure.Failure;
import dev.detour.core.selection.ModelStateKey;
import dev.detour.gateway.port.PendingState;
import dev.detour.gateway.port.PoolStore;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies verdicts to pool state. D-1: at once to this instance's snapshot (the next request already
 * honours the cooldown), and durably through {@link StateWrites} — in order, idempotently, and
 * recomposed by the store on the state it reads under the row lock, so whatever another instance
 * wrote meanwhile is built upon, never overwritten. The request thread never waits on the database.
 * Success writes nothing when there is nothing to clear (C-5, N-2).
 */
public final class StateRecorder {
    private static final Logger log = LoggerFactory.getLogger(StateRecorder.class);
    private final PoolStore store;
    private final PoolSnapshot snapshot;
    private final StateWrites writes;
    private final AtomicLong escalations = new AtomicLong();
    private final AtomicLong escalationsWritten = new AtomicLong();
    /** Model keys this instance served since start (C-3 for accounts without mappings, beside the loaded ones). */
    private final Map<Long, Set<String>> servedHere = new ConcurrentHashMap<>();

    public StateRecorder(PoolStore store, PoolSnapshot snapshot, StateWrites writes) {
        this.store = store;
        this.snapshot = snapshot;
        this.writes = writes;
    }

    public void onFailure(Account account, String modelKey, Failure failure, Instant now) {
        FailureWrite write = new FailureWrite(UUID.randomUUID().toString(), account.id(), modelKey, failure, now);
        boolean[] escalated = new boolean[1];
        snapshot.update(view -> {
            FailureOutcome outcome = write.outcome(view);
            if (outcome == null || !outcome.changed()) {
                return view;
            }
            escalated[0] = outcome.escalated();
            writes.add(write);
            return write.applied(view, outcome);
        });
        if (escalated[0]) {
            escalations.incrementAndGet();
            log.info("account {} escalated to an account cooldown: every serviceable model is unavailable",
                    account.id());
        }
    }

    /**
     * D-1: a failure or success an earlier run applied in memory and kept in its journal but never
     * wrote: queued for the database again (under its own id, so a write that did land is not made
     * twice) and overlaid on the snapshot until it is durable.
     */
    public void replay(PendingState change) {
        StateWrites.Write write;
        if (change instanceof PendingState.FailureSeen f) {
            write = new FailureWrite(f.id(), f.accountId(), f.modelKey(), f.failure(), f.at());
        } else if (change instanceof PendingState.SuccessSeen ok) {
            write = new SuccessWrite(ok.id(), ok.accountId(), ok.modelKey(), ok.at());
        } else {
            throw new IllegalArgumentException("not an account state change: " + change);
        }
        snapshot.update(view -> {
            writes.add(write);
            return write.overlay(view);
        });
    }

    /** C-3 escalations recorded by this instance since start. */
    public long escalations() {
        return escalations.get();
    }

    /**
     * C-3 escalations this instance wrote to the database since start: the stored transition, decided under
     * the account's row lock (retried after a Galera certification conflict), so their sum over the
     * instances is how often the account escalated, whichever instances saw the failures.
     */
    public long escalationsWritten() {
        return escalationsWritten.get();
    }

    public void onSuccess(Account account, String modelKey, Instant now) {
        if (modelKey != null) {
            Set<String> served = servedHere.get(account.id());
            if (served == null || !served.contains(modelKey)) { // read first: a set's add writes even when present
                servedHere.computeIfAbsent(account.id(), id -> ConcurrentHashMap.newKeySet()).add(modelKey);
            }
        }
        if (!somethingToClear(account.id(), modelKey)) {
            return;
        }
        SuccessWrite write = new SuccessWrite(UUID.randomUUID().toString(), account.id(), modelKey, now);
        snapshot.update(view -> {
            PoolSnapshot.View after = write.overlay(view);
            if (after != view) {
                writes.add(write);
            }
            return after;
        });
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

    private Set<String> served(PoolSnapshot.View view, long accountId) {
        Set<String> here = servedHere.get(accountId);
        if (here == null || here.isEmpty()) {
            return view.servedBy(accountId);
        }
        Set<String> all = new HashSet<>(view.servedBy(accountId));
        all.addAll(here);
        return all;
    }

    /** One failure: in memory by {@link FailureTransition}, durably by the store's same rule. */
    private final class FailureWrite implements StateWrites.Write {
        private final String id;
        private final long accountId;
        private final String modelKey;
        private final Failure failure;
        private final Instant at;

        FailureWrite(String id, long accountId, String modelKey, Failure failure, Instant at) {
            this.id = id;
            this.accountId = accountId;
            this.modelKey = modelKey;
            this.failure = failure;
            this.at = at;
        }

        FailureOutcome outcome(PoolSnapshot.View view) {
            Account account = view.byId().get(accountId);
            if (account == null) {
                return null; // deleted meanwhile: nothing to cool here (the store refuses it too)
            }
            return FailureTransition.apply(account, view.rowsOf(accountId), served(view, accountId), modelKey,
                    failure, at);
        }

        PoolSnapshot.View applied(PoolSnapshot.View view, FailureOutcome outcome) {
            Account account = view.byId().get(accountId);
            return view.with(outcome.applyTo(account), FailureTransition.rowsAfter(view.rowsOf(accountId),
                    outcome.modelRow()));
        }

        @Override
        public void persist() {
            PoolStore.StateChange change = store.recordFailure(id, accountId, modelKey, failure, at);
            if (change.escalated()) {
                escalationsWritten.incrementAndGet();
                log.debug("account {}: the stored escalation was written", accountId);
            }
        }

        @Override
        public PoolSnapshot.View overlay(PoolSnapshot.View view) {
            FailureOutcome outcome = outcome(view);
            return outcome == null || !outcome.changed() ? view : applied(view, outcome);
        }

        @Override
        public String describe() {
            return "failure of account " + accountId + " (" + failure.kind().wire() + ") at " + at;
        }

        @Override
        public PendingState pending() {
            return new PendingState.FailureSeen(id, accountId, modelKey, failure, at);
        }
    }

    /** One success clearing (C-5). */
    private final class SuccessWrite implements StateWrites.Write {
        private final String id;
        private final long accountId;
        private final String modelKey;
        private final Instant at;

        SuccessWrite(String id, long accountId, String modelKey, Instant at) {
            this.id = id;
            this.accountId = accountId;
            this.modelKey = modelKey;
            this.at = at;
        }

        @Override
        public void persist() {
            store.recordSuccess(id, accountId, modelKey, false, at);
        }

        /** The view with the success applied, or the same view when there is nothing to clear. */
        @Override
        public PoolSnapshot.View overlay(PoolSnapshot.View view) {
            Account account = view.byId().get(accountId);
            if (account == null) {
                return view;
            }
            List<ModelState> rows = view.rowsOf(accountId);
            SuccessOutcome outcome = SuccessTransition.apply(account, rows, null, modelKey, false, at);
            if (!outcome.changed()) {
                return view;
            }
            return view.with(outcome.applyTo(account), FailureTransition.rowsAfter(rows, outcome.rowChange()));
        }

        @Override
        public String describe() {
            return "success of account " + accountId + " at " + at;
        }

        @Override
        public PendingState pending() {
            return new PendingState.SuccessSeen(id, accountId, modelKey, at);
        }
    }
}
