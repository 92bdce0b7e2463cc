package dev.detour.core.selection;

import static dev.detour.core.selection.SelectionFixtures.MODEL;
import static dev.detour.core.selection.SelectionFixtures.SOL;
import static dev.detour.core.selection.SelectionFixtures.ids;
import static dev.detour.core.selection.SelectionFixtures.parseIds;
import static dev.detour.core.selection.SelectionFixtures.plan;
import static dev.detour.testkit.AccountMother.account;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.Account;
import dev.detour.core.keys.KeyPolicy;
import dev.detour.core.keys.KeyStrategy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SPEC S-3 {@code stability}: recent real-traffic success rate per route (smoothed), then price. Spec: {@code id:ok:failed:ratioPpm}. */
class StabilityStrategyTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "higher success rate first              | 1:9:1:1000000 2:99:1:1000000 3:-:-:1000000 | 2 1 3",
        "a long record beats one lucky request  | 1:1:0:1000000 2:50:10:1000000               | 2 1",
        "an unsampled route beats a failing one | 1:0:5:1000000 2:-:-:1000000                 | 2 1",
        "equal rates fall back to price         | 1:10:0:2000000 2:10:0:500000                | 2 1",
        "equal rate and price: id               | 2:3:1:1000000 1:3:1:1000000                 | 1 2"})
    void routesAreOrderedBySmoothedSuccessRateThenPrice(String label, String specs, String expected) {
        List<Account> accounts = new ArrayList<>();
        Map<Long, GroupView> groups = new HashMap<>();
        Map<ModelStateKey, RouteStats> stats = new HashMap<>();
        for (String spec : specs.trim().split("\\s+")) {
            String[] f = spec.split(":");
            long id = Long.parseLong(f[0]);
            accounts.add(account(id).group(id).maps(MODEL, "up-" + id).build());
            groups.put(id, new GroupView(id, Long.parseLong(f[3]), null));
            if (!f[1].equals("-")) {
                stats.put(new ModelStateKey(id, "up-" + id), RouteStats.outcomes(Long.parseLong(f[1]),
                        Long.parseLong(f[2])));
            }
        }
        SelectionRequest request = SOL.withPolicy(KeyPolicy.UNRESTRICTED.withStrategy(KeyStrategy.STABILITY))
                .withGroups(groups).withInputs(RankingInputs.NONE.withRouteStats(stats));

        Plan plan = plan(request, accounts);

        assertEquals(parseIds(expected), ids(plan), label);
        assertTrue(plan.candidates().stream().allMatch(c -> c.why() == ReasonCode.SELECTED_MOST_STABLE));
    }

    @ParameterizedTest(name = "ok {0}, failed {1} → {2} ppm")
    @CsvSource({"0, 0, 500000", "1, 0, 666666", "9, 1, 833333", "0, 5, 142857", "99, 1, 980392"})
    void theSuccessRateIsLaplaceSmoothed(long ok, long failed, long expected) {
        assertEquals(expected, RouteStats.smoothedSuccessPpm(RouteStats.outcomes(ok, failed)));
    }

    @Test
    void statsAreKeyedByAccountAndModelKeySoAnotherModelsRecordDoesNotCount() {
        List<Account> accounts = List.of(account(1).maps(MODEL, "up-1").build(), account(2).maps(MODEL, "up-2").build());
        Map<ModelStateKey, RouteStats> stats = Map.of(new ModelStateKey(1, "other-model"), RouteStats.outcomes(100, 0),
                new ModelStateKey(2, "up-2"), RouteStats.outcomes(3, 0));
        SelectionRequest request = SOL.withPolicy(KeyPolicy.UNRESTRICTED.withStrategy(KeyStrategy.STABILITY))
                .withInputs(RankingInputs.NONE.withRouteStats(stats));

        assertEquals(List.of(2L, 1L), ids(plan(request, accounts)));
    }
}
