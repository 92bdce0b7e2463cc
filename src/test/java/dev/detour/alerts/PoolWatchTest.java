package dev.detour.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.alerts.AlertKind;
import dev.detour.core.keys.KeyPolicy;
import dev.detour.core.keys.LimitCheck;
import dev.detour.core.keys.LimitKind;
import dev.detour.core.selection.GroupView;
import dev.detour.gateway.port.KeyEntry;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.testkit.AccountMother;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * W-1: the pool watch reads the snapshot as the gateway left it and publishes its transitions: only
 * while this instance leads, never on the first look, and the database outage once per outage.
 */
class PoolWatchTest {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private final AtomicReference<PoolSnapshot.View> view = new AtomicReference<>();
    private final AtomicLong spent = new AtomicLong();
    private final AtomicBoolean databaseUp = new AtomicBoolean(true);
    private final AtomicBoolean leads = new AtomicBoolean(true);
    private final List<String> published = new ArrayList<>();
    private final PoolWatch watch = new PoolWatch(view::get, keyId -> spent.get(), databaseUp::get, leads::get,
            alert -> published.add(alert.kind().wire() + " " + alert.object()));

    private static PoolSnapshot.View pool(AccountStatus status, long spendLimitMicros) {
        Account account = AccountMother.account(1).name("relay-a").group(5).status(status).build();
        KeyEntry key = new KeyEntry(4, "team", true, null, new KeyPolicy(null, null, 0, null, 0)
                .withSpendLimitMicros(spendLimitMicros));
        return new PoolSnapshot.View(1, List.of(account), Map.of(1L, account), Map.of(),
                Map.of(5L, GroupView.plain(5)), Map.of("hash", key), Map.of(), Map.of());
    }

    @Test
    void theFirstLookIsTheBaselineAndLaterChangesArePublished() {
        view.set(pool(AccountStatus.ERROR, 1000));
        spent.set(900);
        watch.observe(T0);
        assertEquals(List.of(), published, "what was already so at start is no news");

        view.set(pool(AccountStatus.OK, 1000));
        spent.set(1000);
        watch.observe(T0.plusSeconds(1));
        assertEquals(List.of("account.recovered account:1", "key.spend_100 key:4"), published);
    }

    @Test
    void anInstanceThatDoesNotLeadPublishesNoPoolEventsButItsOwnDatabaseOutage() {
        leads.set(false);
        view.set(pool(AccountStatus.OK, 1000));
        watch.observe(T0);
        view.set(pool(AccountStatus.REVOKED, 1000));
        databaseUp.set(false);
        watch.observe(T0.plusSeconds(1));
        watch.observe(T0.plusSeconds(2));
        assertEquals(List.of("database.unavailable database"), published, "once per outage");

        databaseUp.set(true);
        watch.observe(T0.plusSeconds(3));
        databaseUp.set(false);
        watch.observe(T0.plusSeconds(4));
        assertEquals(List.of("database.unavailable database", "database.unavailable database"), published);
    }

    @Test
    void transitionsTheStateWritesRecordAreLeftOutAndASpendWindowCrossingIsPublished() {
        AtomicLong daySpend = new AtomicLong(100);
        PoolWatch withOutbox = new PoolWatch(view::get, keyId -> spent.get(),
                key -> List.of(new LimitCheck.Headroom(LimitKind.REQUESTS, 10, 9, 1),
                        new LimitCheck.Headroom(LimitKind.SPEND_DAY, 1000, daySpend.get(), 60)),
                databaseUp::get, leads::get, alert -> published.add(alert.kind().wire() + " " + alert.object()),
                Set.of(AlertKind.ACCOUNT_ERROR, AlertKind.ACCOUNT_REVOKED, AlertKind.ACCOUNT_RECOVERED));
        view.set(pool(AccountStatus.OK, 1000));
        withOutbox.observe(T0);
        view.set(pool(AccountStatus.REVOKED, 1000));
        daySpend.set(850);
        withOutbox.observe(T0.plusSeconds(1));
        assertEquals(List.of("group.unavailable group:5", "key.window_spend_80 key:4:day"), published,
                "the revocation comes from the outbox (the group left without an account does not); requests per"
                        + " minute are no spend window");
    }

    @Test
    void anUnreadableAccountRepairedByAPersonIsStillTheWatchsRecovery() {
        Set<AlertKind> outbox = Set.of(AlertKind.ACCOUNT_ERROR, AlertKind.ACCOUNT_REVOKED, AlertKind.ACCOUNT_RECOVERED);
        PoolWatch withOutbox = new PoolWatch(view::get, keyId -> spent.get(), key -> List.of(), databaseUp::get,
                leads::get, alert -> published.add(alert.kind().wire() + " " + alert.object()), outbox);
        PoolSnapshot.View healthy = pool(AccountStatus.OK, 1000);
        Account unreadable = healthy.accounts().get(0).withConfigError("model_mappings");
        view.set(new PoolSnapshot.View(1, List.of(unreadable), Map.of(1L, unreadable), Map.of(),
                healthy.groups(), healthy.keysByHash(), Map.of(), Map.of()));
        withOutbox.observe(T0);
        view.set(healthy);
        withOutbox.observe(T0.plusSeconds(1));
        assertEquals(List.of("account.recovered account:1"), published, "no state write tells this one");
    }
}
