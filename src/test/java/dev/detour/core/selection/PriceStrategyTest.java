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
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * SPEC S-3 {@code price} and S-7 (seed pool-mechanism cost tiers). Each route spec is
 * {@code id:groupRatioPpm:basePrice:costEma:priority}; {@code -} = unknown / no ledger entry,
 * {@code eN} = a ledger entry of N that is 7 h old (expired).
 */
class PriceStrategyTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "lowest effective price first          | 1:1000000:10:-:0 2:500000:10:-:0 3:1000000:4:-:0 | 3 2 1",
        "ratio times base price                | 1:2000000:1:-:0 2:1000000:3:-:0                  | 1 2",
        "unknown price after known, even cheap | 1:100000:-:-:0 2:2000000:5:-:0                   | 2 1",
        "unknown prices by group ratio         | 1:800000:-:-:0 2:300000:-:-:0 3:500000:-:-:0     | 2 3 1",
        "tie goes to priority, then id         | 1:1000000:5:-:1 3:1000000:5:-:0 2:1000000:5:-:0  | 2 3 1",
        "S-7 free beats unknown beats paid     | 1:100000:1:7:0 2:1000000:9:-:0 3:2000000:9:0:0   | 3 2 1",
        "S-7 paid never beats unknown price    | 1:100000:1:7:0 2:2000000:-:-:0                   | 2 1",
        "an expired ledger entry is unknown    | 1:100000:1:e7:0 2:1000000:9:-:0                  | 1 2",
        "an expired free entry is unknown too  | 1:2000000:9:e0:0 2:1000000:9:-:0                 | 2 1",
        "within a tier the price decides       | 1:1000000:9:5:0 2:1000000:3:8:0                  | 2 1"})
    void routesAreOrderedByCostTierThenKnownPriceThenEffectivePrice(String label, String routes, String expected) {
        Scenario scenario = Scenario.parse(routes);

        Plan plan = plan(scenario.request(KeyStrategy.PRICE), scenario.accounts);

        assertEquals(parseIds(expected), ids(plan), label);
        assertTrue(plan.candidates().stream().allMatch(c -> c.why() == ReasonCode.SELECTED_LOWEST_PRICE), label);
    }

    @Test
    void aPriceListedUnderTheClientModelAppliesToRoutesWhoseModelKeyHasNone() {
        Scenario scenario = Scenario.parse("1:900000:-:-:0 2:400000:-:-:0 3:100000:-:-:0");
        RankingInputs inputs = RankingInputs.NONE.withPrices(Map.of(MODEL, new ModelPrice(2, 3),
                "up-3", new ModelPrice(100, 100)));

        Plan plan = plan(scenario.request(KeyStrategy.PRICE).withInputs(inputs), scenario.accounts);

        assertEquals(List.of(2L, 1L, 3L), ids(plan));
    }

    @Test
    void theBlendedPriceAddsInputAndOutput() {
        assertEquals(7, new ModelPrice(2, 5).blendedMicrosPerM());
        assertEquals(Long.MAX_VALUE, new ModelPrice(Long.MAX_VALUE, 1).blendedMicrosPerM());
    }

    @Test
    void theOrderIsTheSameWhateverThePoolOrderOrSeed() {
        Scenario scenario = Scenario.parse("1:1000000:5:-:0 2:1000000:5:-:0 3:500000:-:-:0 4:1000000:2:0:1");
        List<Account> reversed = new ArrayList<>(scenario.accounts);
        java.util.Collections.reverse(reversed);
        SelectionRequest request = scenario.request(KeyStrategy.PRICE);

        assertEquals(List.of(4L, 1L, 2L, 3L), ids(plan(request, 1, scenario.accounts)));
        assertEquals(List.of(4L, 1L, 2L, 3L), ids(plan(request, 99, reversed)));
    }

    /** Parsed route specs: accounts each in its own group, with prices and a cost ledger keyed by {@code up-<id>}. */
    record Scenario(List<Account> accounts, Map<Long, GroupView> groups, RankingInputs inputs) {
        static Scenario parse(String specs) {
            List<Account> accounts = new ArrayList<>();
            Map<Long, GroupView> groups = new HashMap<>();
            Map<String, ModelPrice> prices = new HashMap<>();
            Map<ModelStateKey, CostEma> ledger = new HashMap<>();
            for (String spec : specs.trim().split("\\s+")) {
                String[] f = spec.split(":");
                long id = Long.parseLong(f[0]);
                accounts.add(account(id).group(id).priority(Integer.parseInt(f[4])).maps(MODEL, "up-" + id).build());
                groups.put(id, new GroupView(id, Long.parseLong(f[1]), null));
                if (!f[2].equals("-")) {
                    prices.put("up-" + id, new ModelPrice(Long.parseLong(f[2]), 0));
                }
                if (!f[3].equals("-")) {
                    boolean expired = f[3].startsWith("e");
                    long value = Long.parseLong(expired ? f[3].substring(1) : f[3]);
                    ledger.put(new ModelStateKey(id, "up-" + id),
                            new CostEma(value, NOW.minus(Duration.ofHours(expired ? 7 : 1))));
                }
            }
            RankingInputs inputs = RankingInputs.NONE.withPrices(prices).withCostLedger(ledger);
            return new Scenario(accounts, groups, inputs);
        }

        SelectionRequest request(KeyStrategy strategy) {
            return SOL.withPolicy(KeyPolicy.UNRESTRICTED.withStrategy(strategy)).withGroups(groups).withInputs(inputs);
        }
    }
}
