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
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * W-1: where pool events come from. Every state change the alerts care about — an account's status
 * (set by the attempt loop's failure rules, recovery, a person or another instance), a model row in
 * error, a group halt (S-9), a key's spend — lands in the pool snapshot. On each alert tick this
 * compares a picture of the snapshot with the previous one and publishes the transitions
 * ({@link PoolAlerts}): the request path does nothing more than it did (N-2), and a change made by
 * any writer is seen once. Only the instance that leads (the recovery lease, or the only instance)
 * publishes pool events, so a cluster sends each once; the database outage is each instance's own
 * (D-1: published the first tick it is seen, from memory).
 */
public final class PoolWatch {
    private final Supplier<PoolSnapshot.View> snapshot;
    private final ToLongFunction<Long> spentMicros;
    private final BooleanSupplier databaseUp;
    private final BooleanSupplier leads;
    private final Alerts alerts;
    private PoolPicture previous;
    private boolean wasUp = true;

    public PoolWatch(Supplier<PoolSnapshot.View> snapshot, ToLongFunction<Long> spentMicros,
            BooleanSupplier databaseUp, BooleanSupplier leads, Alerts alerts) {
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
            PoolAlerts.changes(previous, current, now).forEach(alerts::publish);
        }
        previous = current;
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
        for (KeyEntry k : view.keysByHash().values()) {
            Long limit = k.policy() == null ? null : k.policy().spendLimitMicros();
            if (limit != null) {
                keys.put(k.id(), new PoolPicture.KeyMark(k.name(), spentMicros.applyAsLong(k.id()), limit));
            }
        }
        return new PoolPicture(accounts, models, groups, keys);
    }

    /** Whether the account could take a request now: on, readable, not in error, not cooling down. */
    private static boolean usable(Account a, Instant now) {
        Instant blocked = a.failure().blockedUntil();
        return a.enabled() && !a.hasConfigError()
                && (a.status() == AccountStatus.OK || a.status() == AccountStatus.WARNING)
                && (blocked == null || !blocked.isAfter(now));
    }
}
