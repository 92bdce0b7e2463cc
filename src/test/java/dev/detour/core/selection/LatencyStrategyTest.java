package dev.detour.core.selection;

import static dev.detour.core.selection.SelectionFixtures.MODEL;
import static dev.detour.core.selection.SelectionFixtures.NOW;
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

/**
 * SPEC S-3 {@code latency}: p95 TTFT with a minimum sample count (20); unknown routes are explored,
 * never starved. Spec: {@code id:p95:samples} ({@code -} = no stats).
 */
class LatencyStrategyTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "fastest p95 first                      | 1:800:30 2:300:25 3:500:20     | 0    | 2 3 1",
        "too few samples is unknown, not fast   | 1:100:5 2:400:30               | 0    | 2 1",
        "no stats at all is unknown             | 1:-:- 2:900:40                 | 0    | 2 1",
        "the exploration slot puts unknown first| 1:100:5 2:400:30 3:200:50      | 1000 | 1 3 2",
        "unknowns: least sampled explored first | 1:100:19 2:-:- 3:300:5 4:90:99 | 1000 | 2 4 3 1",
        "only unknowns: least sampled first     | 1:100:10 2:-:- 3:50:5          | 0    | 2 3 1",
        "equal p95: price order, then id        | 2:300:30 1:300:30              | 0    | 1 2"})
    void sampledRoutesComeFastestFirstAndUnknownOnesFollowOrTakeTheExplorationSlot(String label, String specs,
            int explorePermille, String expected) {
        Pool pool = Pool.parse(specs);
        SelectionRequest request = pool.request(SelectionSettings.DEFAULTS.withLatency(20, explorePermille));

        Plan plan = plan(request, pool.accounts);

        assertEquals(parseIds(expected), ids(plan), label);
        assertTrue(plan.candidates().stream().allMatch(c -> c.why() == ReasonCode.SELECTED_FASTEST));
    }

    @Test
    void withTheDefaultSettingAnUnknownRouteLeadsAboutOneRequestInTen() {
        Pool pool = Pool.parse("1:200:50 2:-:- 3:300:50");
        SelectionRequest request = pool.request(SelectionSettings.DEFAULTS);
        SelectionPipeline pipeline = new SelectionPipeline();
        SeededRandom random = new SeededRandom(7);
        int explored = 0;
        for (int i = 0; i < 10_000; i++) {
            explored += pipeline.plan(request, pool.accounts, Map.of(), NOW, random).candidates().get(0)
                    .accountId() == 2 ? 1 : 0;
        }
        assertEquals(0.10, explored / 10_000.0, 0.015);
    }

    @Test
    void noUnknownRouteIsStarvedWhileRealTrafficSamplesThem() {
        Pool pool = Pool.parse("1:150:100 2:-:- 3:-:- 4:-:-");
        Map<ModelStateKey, RouteStats> stats = new HashMap<>(pool.stats);
        SelectionPipeline pipeline = new SelectionPipeline();
        SeededRandom random = new SeededRandom(11);
        for (int request = 0; request < 2_000; request++) {
            SelectionRequest next = pool.request(SelectionSettings.DEFAULTS)
                    .withInputs(RankingInputs.NONE.withRouteStats(Map.copyOf(stats)));
            long first = pipeline.plan(next, pool.accounts, Map.of(), NOW, random).candidates().get(0).accountId();
            stats.merge(new ModelStateKey(first, "up-" + first), RouteStats.ttft(400, 1),
                    (old, one) -> RouteStats.ttft(400, old.ttftSamples() + 1));
        }
        for (long id = 2; id <= 4; id++) {
            assertTrue(stats.get(new ModelStateKey(id, "up-" + id)).ttftSamples() >= 20, "route " + id + " sampled");
        }
    }

    @Test
    void theSameSeedExploresTheSameWay() {
        Pool pool = Pool.parse("1:200:50 2:-:- 3:300:50");
        SelectionRequest request = pool.request(SelectionSettings.DEFAULTS.withLatency(20, 500));

        for (long seed = 0; seed < 20; seed++) {
            assertEquals(ids(plan(request, seed, pool.accounts)), ids(plan(request, seed, pool.accounts)));
        }
    }

    record Pool(List<Account> accounts, Map<ModelStateKey, RouteStats> stats) {
        static Pool parse(String specs) {
            List<Account> accounts = new ArrayList<>();
            Map<ModelStateKey, RouteStats> stats = new HashMap<>();
            for (String spec : specs.trim().split("\\s+")) {
                String[] f = spec.split(":");
                long id = Long.parseLong(f[0]);
                accounts.add(account(id).maps(MODEL, "up-" + id).build());
                if (!f[1].equals("-")) {
                    stats.put(new ModelStateKey(id, "up-" + id),
                            RouteStats.ttft(Long.parseLong(f[1]), Long.parseLong(f[2])));
                }
            }
            return new Pool(accounts, stats);
        }

        SelectionRequest request(SelectionSettings settings) {
            return SOL.withPolicy(KeyPolicy.UNRESTRICTED.withStrategy(KeyStrategy.LATENCY)).withSettings(settings)
                    .withInputs(RankingInputs.NONE.withRouteStats(stats));
        }
    }
}
