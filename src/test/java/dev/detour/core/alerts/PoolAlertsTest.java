package dev.detour.core.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.core.alerts.PoolPicture.AccountMark;
import dev.detour.core.alerts.PoolPicture.GroupMark;
import dev.detour.core.alerts.PoolPicture.KeyMark;
import dev.detour.core.alerts.PoolPicture.ModelMark;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** W-1: which transitions between two pictures of the pool are alerts. */
class PoolAlertsTest {
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    private static PoolPicture accounts(String statusA, boolean usableA, String statusB, boolean usableB) {
        return new PoolPicture(Map.of(1L, new AccountMark("relay-a", 9, statusA, usableA),
                2L, new AccountMark("relay-b", 9, statusB, usableB)), Map.of(),
                Map.of(9L, new GroupMark("main", false)), Map.of());
    }

    private static List<String> events(PoolPicture before, PoolPicture after) {
        return PoolAlerts.changes(before, after, NOW).stream().map(a -> a.kind().wire() + " " + a.object()).toList();
    }

    @ParameterizedTest(name = "{0} → {1}: {2}")
    @CsvSource(delimiter = '|', value = {
        "ok           | error        | account.error account:1",
        "warning      | revoked      | account.revoked account:1",
        "ok           | config_error | account.config_error account:1",
        "error        | ok           | account.recovered account:1",
        "config_error | warning      | account.recovered account:1",
        "ok           | paused       | ''",
        "paused       | ok           | ''",
        "ok           | warning      | ''",
        "error        | error        | ''",
        "error        | revoked      | account.revoked account:1",
    })
    void anAccountStatusChangeIsAnAlertOnlyWhenItLeavesOrReturnsToService(String before, String after,
            String expected) {
        boolean usableBefore = before.equals("ok") || before.equals("warning");
        boolean usableAfter = after.equals("ok") || after.equals("warning");
        assertEquals(expected.isEmpty() ? List.of() : List.of(expected),
                events(accounts(before, usableBefore, "ok", true), accounts(after, usableAfter, "ok", true)));
    }

    @Test
    void theLastUsableAccountOfAGroupGoingAwayIsGroupUnavailableOnce() {
        PoolPicture oneLeft = accounts("error", false, "ok", true);
        PoolPicture noneLeft = accounts("error", false, "ok", false); // relay-b cooling down
        assertEquals(List.of("group.unavailable group:9"), events(oneLeft, noneLeft));
        assertEquals(List.of(), events(noneLeft, noneLeft));
    }

    @Test
    void aGroupHaltIsAnAlertWhenItBegins() {
        PoolPicture running = accounts("ok", true, "ok", true);
        PoolPicture halted = new PoolPicture(running.accounts(), Map.of(), Map.of(9L, new GroupMark("main", true)),
                Map.of());
        assertEquals(List.of("group.halted group:9"), events(running, halted));
        assertEquals(List.of(), events(halted, running));
    }

    @Test
    void aModelRowInErrorIsAnAlertUnlessItsAccountIsOutOfServiceAnyway() {
        PoolPicture healthy = accounts("ok", true, "ok", true);
        PoolPicture modelDown = new PoolPicture(healthy.accounts(),
                Map.of("model:1:gpt-5", new ModelMark(1, "relay-a", "gpt-5")), healthy.groups(), Map.of());
        assertEquals(List.of("model.error model:1:gpt-5"), events(healthy, modelDown));
        PoolPicture accountDown = new PoolPicture(accounts("error", false, "ok", true).accounts(),
                modelDown.erroredModels(), healthy.groups(), Map.of());
        assertEquals(List.of("account.error account:1"), events(healthy, accountDown));
    }

    @ParameterizedTest(name = "spent {0} → {1} of 1000: {2}")
    @CsvSource(delimiter = '|', value = {
        "0   | 799  | ''",
        "0   | 800  | key.spend_80 key:4",
        "799 | 999  | key.spend_80 key:4",
        "800 | 999  | ''",
        "800 | 1000 | key.spend_100 key:4",
        "0   | 1200 | key.spend_100 key:4",
        "1000| 1500 | ''",
    })
    void aKeyCrossing80Or100PercentOfItsSpendLimitIsAnAlertOnce(long before, long after, String expected) {
        assertEquals(expected.isEmpty() ? List.of() : List.of(expected), events(key(before), key(after)));
    }

    @Test
    void objectsThatAppearOrVanishAreNoAlerts() {
        PoolPicture none = PoolPicture.empty();
        PoolPicture some = accounts("error", false, "revoked", false);
        assertEquals(List.of(), events(none, some));
        assertEquals(List.of(), events(some, none));
    }

    @ParameterizedTest(name = "day window {0} → {1} of 1000: {2}")
    @CsvSource(delimiter = '|', value = {
        "0    | 799  | ''",
        "700  | 800  | key.window_spend_80 key:4:day",
        "800  | 1000 | key.window_spend_100 key:4:day",
        "1000 | 1000 | ''",
        "1000 | 300  | ''",
        "300  | 900  | key.window_spend_80 key:4:day",
    })
    void aKeysSpendWindowCrossing80Or100PercentIsAnAlertAgainAfterItRolledBelow(long before, long after,
            String expected) {
        assertEquals(expected.isEmpty() ? List.of() : List.of(expected), events(window(before), window(after)));
    }

    @Test
    void eachSpendWindowOfAKeyIsItsOwnObject() {
        PoolPicture before = new PoolPicture(Map.of(), Map.of(), Map.of(), Map.of(), Map.of(
                "key:4:day", new PoolPicture.WindowMark(4, "team", "day", 100, 1000),
                "key:4:week", new PoolPicture.WindowMark(4, "team", "week", 100, 5000)));
        PoolPicture after = new PoolPicture(Map.of(), Map.of(), Map.of(), Map.of(), Map.of(
                "key:4:day", new PoolPicture.WindowMark(4, "team", "day", 1000, 1000),
                "key:4:week", new PoolPicture.WindowMark(4, "team", "week", 1000, 5000)));
        List<Alert> alerts = PoolAlerts.changes(before, after, NOW);
        assertEquals(List.of("key.window_spend_100 key:4:day"), alerts.stream()
                .map(a -> a.kind().wire() + " " + a.object()).toList());
        assertEquals("key team reached 100 % of its day spend window", alerts.get(0).title());
    }

    private static PoolPicture window(long spent) {
        return new PoolPicture(Map.of(), Map.of(), Map.of(), Map.of(),
                Map.of("key:4:day", new PoolPicture.WindowMark(4, "team", "day", spent, 1000)));
    }

    private static PoolPicture key(long spent) {
        return new PoolPicture(Map.of(), Map.of(), Map.of(), Map.of(4L, new KeyMark("team", spent, 1000)));
    }
}
