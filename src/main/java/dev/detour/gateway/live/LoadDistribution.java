package dev.detour.gateway.live;

import dev.detour.core.account.Account;
import dev.detour.core.cluster.InstanceShare;
import dev.detour.core.cooldown.BreakerRules;
import dev.detour.core.cooldown.GroupHaltRules;
import dev.detour.core.failure.Failure;
import dev.detour.core.selection.CostEma;
import dev.detour.core.selection.GroupView;
import dev.detour.core.selection.ModelStateKey;
import dev.detour.core.selection.RankingInputs;
import dev.detour.core.selection.SelectionSettings;
import dev.detour.gateway.port.LoadStore;
import dev.detour.gateway.port.PendingState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's load distribution and protection state (S-4, S-6, S-7, S-9, C-6): when each
 * account was last picked, the cost ledger, the half-open trial guard, session bindings and group
 * halts. Everything read on the request path is in memory (N-2).
 */
public final class LoadDistribution {
    private static final Logger log = LoggerFactory.getLogger(LoadDistribution.class);

    /** One failed account of a request, for the S-9 decision at its end. */
    public record Failed(Account account, Failure failure) {
    }

    private final PoolSnapshot snapshot;
    private final LoadStore store;
    private final SessionBindings bindings;
    private final PickTimes lastPicks = new PickTimes();
    private final Map<ModelStateKey, CostEma> costLedger = new ConcurrentHashMap<>();
    private final RankingInputs liveInputs = RankingInputs.NONE
            .withLastPicks(lastPicks)
            .withCostLedger(Collections.unmodifiableMap(costLedger));
    private final Set<Long> trials = ConcurrentHashMap.newKeySet();
    private volatile SelectionSettings settings = SelectionSettings.DEFAULTS;
    private volatile InstanceShare share = InstanceShare.ALONE;
    private volatile StateWrites deferred;

    public LoadDistribution(PoolSnapshot snapshot, LoadStore store) {
        this.snapshot = snapshot;
        this.store = store;
        this.bindings = new SessionBindings(store);
    }

    /**
     * D-1: group halts are applied in memory at once and written through the state writer, never on
     * the request thread. Without it (the bare gateway in tests) they are written in place.
     */
    public void deferWritesTo(StateWrites writes) {
        this.deferred = writes;
    }

    public SessionBindings bindings() {
        return bindings;
    }

    /** S-4 min pick gap and idle bonus, from the runtime settings (U-5: applied live by {@link #useSettings}). */
    public SelectionSettings settings() {
        return settings;
    }

    public void useSettings(SelectionSettings newSettings) {
        this.settings = newSettings == null ? SelectionSettings.DEFAULTS : newSettings;
    }

    /**
     * S-4 / S-7 inputs: read-only views of the live picks and ledger, not copies (N-10: two copies per request
     * grew with the pool). A ranking reads each value once where it sorts by it (TierPick's weights and last
     * uses, the price points kept per account), so a pick made meanwhile never changes a value during a sort.
     */
    public RankingInputs rankingInputs() {
        return liveInputs;
    }

    /** S-5 with several instances: a fixed count ({@code DETOUR_INSTANCES}), this instance taking the rounded-up part. */
    public void useInstances(int count) {
        this.share = InstanceShare.pinned(count);
    }

    /** G-2: the live instances' count and this instance's rank among them (the registry's heartbeat). */
    public void useShare(InstanceShare liveShare) {
        this.share = liveShare;
    }

    public InstanceShare share() {
        return share;
    }

    /**
     * S-5: this instance's share of an account's {@code max_in_flight} (G-2: the parts of the live
     * instances add up to the limit); 0 stays unlimited.
     */
    public int capacityShare(int maxInFlight) {
        return share.of(maxInFlight);
    }

    /** S-4: every pick is recorded (the gap and idle bonus read it). */
    public void picked(long accountId, Instant now) {
        lastPicks.picked(accountId, now);
    }

    /** S-7: an upstream-reported cost for this (account, model key), as micros per 1,000 tokens. */
    public void observeCost(long accountId, String modelKey, long costMicros, long tokens, Instant now) {
        if (modelKey == null || tokens <= 0 || costMicros < 0) {
            return;
        }
        ModelStateKey key = new ModelStateKey(accountId, modelKey);
        costLedger.compute(key, (k, previous) -> CostEma.observe(previous, CostEma.perKTokens(costMicros, tokens), now,
                settings.costLedgerTtl()));
    }

    /**
     * C-6 half-open: an account whose breaker time has run out (still recorded) admits one
     * request at a time; the others skip it. Returns false when another trial is running.
     */
    public boolean enterTrial(Account account, Instant now) {
        return !BreakerRules.halfOpen(account, now) || trials.add(account.id());
    }

    public void exitTrial(long accountId) {
        trials.remove(accountId);
    }

    /** S-9: any success in a group clears its halt and streak. */
    public void groupSucceeded(long groupId, Instant now) {
        GroupView group = snapshot.view().groups().get(groupId);
        if (group != null && group.haltTraces()) {
            write(group, null, 0, null, now);
        }
    }

    /** S-9: after a request in which every attempt failed, halt each opted-in group by the rules. */
    public void requestFailed(List<Failed> failed, Instant now) {
        Map<Long, List<Failure>> byGroup = new HashMap<>();
        failed.forEach(f -> byGroup.computeIfAbsent(f.account().groupId(), g -> new ArrayList<>()).add(f.failure()));
        byGroup.forEach((groupId, failures) -> {
            GroupView group = snapshot.view().groups().get(groupId);
            if (group == null || !group.haltPolicyOn()) {
                return;
            }
            GroupHaltRules.Halt halt = GroupHaltRules.afterFailedRequest(failures, group.haltStreak(), now);
            if (halt != null) {
                log.info("group {} halted until {} ({})", groupId, halt.until(), halt.reason());
                write(group, halt.until(), halt.streak(), halt.reason(), now);
            }
        });
    }

    private void write(GroupView group, Instant until, int streak, String reason, Instant now) {
        StateWrites writes = deferred;
        if (writes != null) {
            HaltWrite write = new HaltWrite(group.id(), until, streak, reason, now);
            snapshot.update(view -> {
                writes.add(write);
                return write.overlay(view);
            });
            return;
        }
        try {
            snapshot.applyGroup(store.writeHalt(group, until, streak, reason, now));
        } catch (RuntimeException e) {
            log.error("halt of group {} could not be written: {}", group.id(), e.toString());
        }
    }

    /** D-1: a halt an earlier run kept in its journal but never wrote: queued again, overlaid until durable. */
    public void replay(PendingState.GroupHalt halt) {
        HaltWrite write = new HaltWrite(halt.groupId(), halt.until(), halt.streak(), halt.reason(), halt.at());
        StateWrites writes = deferred;
        snapshot.update(view -> {
            writes.add(write);
            return write.overlay(view);
        });
    }

    /** S-9 halt (or clear) of one group: absolute values, so writing it twice is harmless. */
    private final class HaltWrite implements StateWrites.Write {
        private final long groupId;
        private final Instant until;
        private final int streak;
        private final String reason;
        private final Instant at;

        HaltWrite(long groupId, Instant until, int streak, String reason, Instant at) {
            this.groupId = groupId;
            this.until = until;
            this.streak = streak;
            this.reason = reason;
            this.at = at;
        }

        @Override
        public void persist() {
            GroupView group = snapshot.view().groups().get(groupId);
            if (group != null) {
                store.writeHalt(group, until, streak, reason, at);
            }
        }

        @Override
        public PoolSnapshot.View overlay(PoolSnapshot.View view) {
            GroupView group = view.groups().get(groupId);
            return group == null ? view : view.withGroup(group.withHalt(until, streak, reason));
        }

        @Override
        public String describe() {
            return "halt of group " + groupId + " until " + until;
        }

        @Override
        public PendingState pending() {
            return new PendingState.GroupHalt(groupId, until, streak, reason, at);
        }
    }
}
