package dev.detour.core.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.ValidationException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SPEC §1 key policy, K-2 checks before routing. */
class KeyPolicyTest {

    @ParameterizedTest(name = "allowed [{0}] requested {1} → {2}")
    @CsvSource(nullValues = "NULL", value = {
        "'', gpt-5.6-sol, true",
        "'', NULL, true",
        "glm-5.3, glm-5.3, true",
        "glm-5.3, gpt-5.6-sol, false",
        "glm-5.3, NULL, true",
        "claude-x, 'claude-x[1m]', false"})
    void anEmptyAllowedListMeansEveryModel(String allowed, String requested, boolean expected) {
        Set<String> models = allowed.isEmpty() ? Set.of() : Set.of(allowed);

        assertEquals(expected, KeyPolicy.UNRESTRICTED.withAllowedModels(models).allowsModel(requested));
    }

    @ParameterizedTest(name = "future={0} include=[{1}] exclude=[{2}] group {3} → {4}")
    @CsvSource({
        "true, '', '', 5, true",
        "true, '', 5, 5, false",
        "true, '', 5, 6, true",
        "false, 1, '', 1, true",
        "false, 1, '', 2, false",
        "false, 1, 1, 1, false",
        "false, '', '', 1, false"})
    void groupScopeIncludesFutureGroupsOrOnlyTheListedOnesAndExclusionsWin(boolean future, String include,
            String exclude, long group, boolean expected) {
        GroupScope scope = new GroupScope(future, ids(include), ids(exclude));

        assertEquals(expected, KeyPolicy.UNRESTRICTED.withGroups(scope).allowsGroup(group));
    }

    @Test
    void theDefaultStrategyIsPriorityAndMissingPartsTakeDefaults() {
        KeyPolicy policy = new KeyPolicy(null, null, 0, null, 0);

        assertEquals(KeyStrategy.PRIORITY, policy.strategy());
        assertTrue(policy.allowedModels().isEmpty());
        assertTrue(policy.allowsGroup(42));
        assertEquals(KeyStrategy.PRIORITY, KeyStrategy.fromWire(null));
        assertEquals(KeyStrategy.BALANCED, KeyStrategy.fromWire("balanced"));
    }

    @Test
    void badPolicyValuesAreRejectedWithStableCodes() {
        assertEquals("validation.key_policy.max_ratio_ppm",
                assertThrows(ValidationException.class, () -> new KeyPolicy(Set.of(), GroupScope.ALL, -1,
                        KeyStrategy.PRIORITY, 0)).code());
        assertEquals("validation.key_policy.max_attempts",
                assertThrows(ValidationException.class, () -> new KeyPolicy(Set.of(), GroupScope.ALL, 0,
                        KeyStrategy.PRIORITY, -2)).code());
        assertEquals("validation.key_policy.strategy",
                assertThrows(ValidationException.class, () -> KeyStrategy.fromWire("cheapest")).code());
    }

    @ParameterizedTest(name = "weights {0}/{1}/{2} → valid {3}")
    @CsvSource({"45, 40, 15, true", "100, 0, 0, true", "0, 0, 100, true", "34, 33, 33, true", "45, 40, 14, false",
        "50, 50, 1, false", "-10, 60, 50, false", "0, 0, 0, false"})
    void balancedWeightsMustBeNonNegativeAndSumToAHundred(int stability, int price, int latency, boolean valid) {
        if (valid) {
            assertEquals(stability, new BalancedWeights(stability, price, latency).stability());
        } else {
            assertEquals("validation.key_policy.balanced_weights", assertThrows(ValidationException.class,
                    () -> new BalancedWeights(stability, price, latency)).code());
        }
    }

    @ParameterizedTest(name = "affinity premium {0} % → valid {1}")
    @CsvSource({"0, true", "10, true", "100, true", "-1, false", "101, false"})
    void theAffinityPremiumIsAPercentFromZeroToAHundred(int pct, boolean valid) {
        if (valid) {
            assertEquals(pct, KeyPolicy.UNRESTRICTED.withAffinityPremiumPct(pct).affinityPremiumPct());
        } else {
            assertEquals("validation.key_policy.affinity_premium_pct", assertThrows(ValidationException.class,
                    () -> KeyPolicy.UNRESTRICTED.withAffinityPremiumPct(pct)).code());
        }
    }

    @ParameterizedTest(name = "spend limit {0}, spent {1} → reached {2}")
    @CsvSource(nullValues = "NULL", value = {"NULL, 999999, false", "0, 0, true", "500, 499, false", "500, 500, true",
        "500, 501, true"})
    void theSpendLimitIsReachedAtTheLimitAndNeverWithoutOne(Long limit, long spent, boolean reached) {
        assertEquals(reached, KeyPolicy.UNRESTRICTED.withSpendLimitMicros(limit).spendLimitReached(spent));
    }

    @Test
    void aNegativeSpendLimitOrARepeatedManualGroupIsRejected() {
        assertEquals("validation.key_policy.spend_limit", assertThrows(ValidationException.class,
                () -> KeyPolicy.UNRESTRICTED.withSpendLimitMicros(-1L)).code());
        assertEquals("validation.key_policy.manual_group_order", assertThrows(ValidationException.class,
                () -> KeyPolicy.UNRESTRICTED.withManualGroupOrder(List.of(3L, 1L, 3L))).code());
    }

    @Test
    void theFiveFieldConstructorTakesTheDefaultsOfTheNewFields() {
        KeyPolicy policy = new KeyPolicy(Set.of("m"), GroupScope.ALL, 300_000, KeyStrategy.PRICE, 3);

        assertEquals(BalancedWeights.DEFAULT, policy.balancedWeights());
        assertEquals(new BalancedWeights(45, 40, 15), policy.balancedWeights());
        assertEquals(List.of(), policy.manualGroupOrder());
        assertEquals(10, policy.affinityPremiumPct());
        assertNull(policy.spendLimitMicros());
        assertEquals(policy, new KeyPolicy(Set.of("m"), GroupScope.ALL, 300_000, KeyStrategy.PRICE, 3, null, null,
                10, null));
    }

    @Test
    void everyWitherChangesOnlyItsOwnField() {
        KeyPolicy base = KeyPolicy.UNRESTRICTED.withStrategy(KeyStrategy.BALANCED).withMaxAttempts(2)
                .withMaxRatioPpm(700_000).withBalancedWeights(new BalancedWeights(20, 60, 20))
                .withManualGroupOrder(List.of(4L, 2L)).withAffinityPremiumPct(25).withSpendLimitMicros(9_000L);

        assertEquals(new KeyPolicy(Set.of(), GroupScope.ALL, 700_000, KeyStrategy.BALANCED, 2,
                new BalancedWeights(20, 60, 20), List.of(4L, 2L), 25, 9_000L), base);
        assertEquals(base, base.withGroups(GroupScope.ALL).withAllowedModels(Set.of()));
    }

    private static Set<Long> ids(String csv) {
        return csv.isBlank() ? Set.of() : Set.of(Long.parseLong(csv.trim()));
    }
}
