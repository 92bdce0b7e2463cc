package dev.detour.core.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.ValidationException;
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

    private static Set<Long> ids(String csv) {
        return csv.isBlank() ? Set.of() : Set.of(Long.parseLong(csv.trim()));
    }
}
