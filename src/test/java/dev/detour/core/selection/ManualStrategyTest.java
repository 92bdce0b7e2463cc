package dev.detour.core.selection;

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
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SPEC S-3 {@code manual}: the key's group order, unlisted groups after, then priority, then id. */
class ManualStrategyTest {
    // id: group, priority — 1: g1 p0, 2: g2 p0, 3: g3 p1, 4: g3 p0, 5: g1 p0
    static final List<Account> POOL = List.of(account(1).group(1).build(), account(2).group(2).build(),
            account(3).group(3).priority(1).build(), account(4).group(3).build(), account(5).group(1).build());

    @ParameterizedTest(name = "group order [{0}] → {1}")
    @CsvSource({
        "'3 1', 4 3 1 5 2",
        "'2 3 1', 2 4 3 1 5",
        "'1', 1 5 2 4 3",
        "'9 2', 2 1 4 5 3",
        "'', 1 2 4 5 3"})
    void routesFollowTheKeysGroupOrderThenPriorityThenId(String groupOrder, String expected) {
        KeyPolicy policy = KeyPolicy.UNRESTRICTED.withStrategy(KeyStrategy.MANUAL)
                .withManualGroupOrder(parseIds(groupOrder));

        Plan plan = plan(SOL.withPolicy(policy), POOL);

        assertEquals(parseIds(expected), ids(plan));
        assertTrue(plan.candidates().stream().allMatch(c -> c.why() == ReasonCode.SELECTED_MANUAL_ORDER));
    }
}
