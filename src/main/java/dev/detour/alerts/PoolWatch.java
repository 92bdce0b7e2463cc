package dev.detour.alerts;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import dev.detour.core.alerts.Alert;
import dev.detour.core.alerts.AlertKind;
import dev.detour.core.alerts.PoolAlerts;
import dev.detour.core.alerts.PoolPicture;
import dev.detour.core.selection.GroupView;
import dev.detour.gateway.port.KeyEntry;
import dev.detour.gateway.live.PoolSnapshot;
import java.time.Instant;
import dev.detour.core.keys.LimitCheck;
import dev.detour.core.keys.LimitKind;
import dev.detour.core.keys.LimitWindow;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * W-1: pool events seen by looking. Every state change the alerts care about lands in the pool
 * snapshot; on each alert tick this compares a picture of the snapshot with the previous one and
 * publishes the transitions ({@link PoolAlerts}), so the request path does nothing more than it did
 * (N-2). A comparison once a second misses a change undone within the second and one made while no
 * instance looked, so the transitions a state write makes (account and model status, a halt
 * beginning) are recorded with that write instead (the outbox) and left out here
 * ({@code recordedElsewhere}); what stays here has no single write — a group left without a usable
 * account, a stored row that cannot be read, key spend (lifetime and L-1's rolling windows), which
 * only grows or moves by steps. Only the instance that leads (the recovery lease, or the only
 * instance) publishes them, so a cluster sends each once; the database outage is each instance's own
 * (D-1: published the first tick it is seen, from memory).
 */
public final class PoolWatch {
    private final Supplier<PoolSnapshot.View> snapshot;
    private final ToLongFunction<Long> spentMicros;
    private final BooleanSupplier databaseUp;
    private final BooleanSupplier leads;
    private final Alerts alerts;
    private final Set<AlertKind> recordedElsewhere;
    private final Function<KeyEntry, List<LimitCheck.Headroom>> windows;
    private PoolPicture previous;
    private boolean wasUp = true;

    public PoolWatch(Supplier<PoolSnapshot.View> snapshot, ToLongFunction<Long> spentMicros,
            BooleanSupplier databaseUp, BooleanSupplier leads, Alerts alerts) {
        this(snapshot, spentMicros, key -> List.of(), databaseUp, leads, alerts, Set.of());
    }

    /**
     * {@code windows}: L-1's limits of a key as the key limiter counts them for the cluster (its spend
     * windows are watched); {@code recordedElsewhere}: kinds the state writes record themselves (the
     * outbox, without the gaps of a once-a-second comparison), which the watch leaves out.
     */
    public PoolWatch(Supplier<PoolSnapshot.View> snapshot, ToLongFunction<Long> spentMicros,
            Function<KeyEntry, List<LimitCheck.Headroom>> windows, BooleanSupplier databaseUp, BooleanSupplier leads,
            Alerts alerts, Set<AlertKind> recordedElsewhere) {
        this.recordedElsewhere = Set.copyOf(recordedElsewhere);
        this.windows = windows;
        this.snapshot = snapshot;
        this.spentMicros = spentMicros;
        this.databaseUp = databaseUp;
        this.leads = leads;
        this.alerts = alerts;
    }

    /** One look at {@code now}; the first look is the baseline and publishes nothing about the pool. */
    public synchronized void observe(Instant now) {
        boolean up = databaseUp.getAsBoolean();
        if (wasUp && !up) {
            alerts.publish(new Alert(AlertKind.DATABASE_UNAVAILABLE, "database", "the database is unavailable",
                    "this Detour instance lost MariaDB: requests are served from its snapshot, state and event"
                            + " writes wait, and the delivery log is written when the database is back", now));
        }
        wasUp = up;
        PoolPicture current = picture(snapshot.get(), now);
        if (previous != null && leads.getAsBoolean()) {
            for (Alert alert : PoolAlerts.changes(previous, current, now)) {
                if (!recordedElsewhere.contains(alert.kind()) || repairedRow(alert)) {
                    alerts.publish(alert);
                }
            }
        }
        previous = current;
    }

    /**
     * D-4: an account whose stored row could not be read comes back through a person's edit, not a
     * state write, so no outbox row tells it: its recovery is the watch's.
     */
    private boolean repairedRow(Alert alert) {
        if (alert.kind() != AlertKind.ACCOUNT_RECOVERED || !alert.object().startsWith("account:")) {
            return false;
        }
        PoolPicture.AccountMark was = previous.accounts().get(Long.parseLong(alert.object().substring(8)));
        return was != null && was.shownStatus().equals(Account.CONFIG_ERROR);
    }

    private PoolPicture picture(PoolSnapshot.View view, Instant now) {
        Map<Long, PoolPicture.AccountMark> accounts = new HashMap<>();
        for (Account a : view.accounts()) {
            if (!a.archived()) {
                accounts.put(a.id(), new PoolPicture.AccountMark(a.name(), a.groupId(), a.shownStatus(),
                        usable(a, now)));
            }
        }
        Map<String, PoolPicture.ModelMark> models = new HashMap<>();
        for (ModelState row : view.models().values()) {
            Account a = view.byId().get(row.accountId());
            if (row.status() == ModelStatus.ERROR && a != null && !a.archived()) {
                models.put("model:" + a.id() + ":" + row.modelKey(),
                        new PoolPicture.ModelMark(a.id(), a.name(), row.modelKey()));
            }
        }
        Map<Long, PoolPicture.GroupMark> groups = new HashMap<>();
        for (GroupView g : view.groups().values()) {
            groups.put(g.id(), new PoolPicture.GroupMark(g.name() == null ? "#" + g.id() : g.name(), g.haltedAt(now)));
        }
        Map<Long, PoolPicture.KeyMark> keys = new HashMap<>();
        Map<String, PoolPicture.WindowMark> spendWindows = new HashMap<>();
        for (KeyEntry k : view.keysByHash().values()) {
            Long limit = k.policy() == null ? null : k.policy().spendLimitMicros();
            if (limit != null) {
                keys.put(k.id(), new PoolPicture.KeyMark(k.name(), spentMicros.applyAsLong(k.id()), limit));
            }
            if (k.policy() != null) {
                for (LimitCheck.Headroom h : windows.apply(k)) {
                    LimitWindow window = h.kind().window();
                    if (h.kind().code().equals(LimitKind.SPEND_DAY.code())) { // the spend windows, not rpm/tpm
                        spendWindows.put("key:" + k.id() + ":" + window.wire(), new PoolPicture.WindowMark(k.id(),
                                k.name(), window.wire(), h.used(), h.limit()));
                    }
                }
            }
        }
        return new PoolPicture(accounts, models, groups, keys, spendWindows);
    }

    /** Whether the account could take a request now: on, readable, not in error, not cooling down. */
    private static boolean usable(Account a, Instant now) {
        Instant blocked = a.failure().blockedUntil();
        return a.enabled() && !a.hasConfigError()
                && (a.status() == AccountStatus.OK || a.status() == AccountStatus.WARNING)
                && (blocked == null || !blocked.isAfter(now));
    }
}
