package dev.detour.core.selection;

import static dev.detour.core.selection.SelectionFixtures.SOL;
import static dev.detour.core.selection.SelectionFixtures.ids;
import static dev.detour.core.selection.SelectionFixtures.plan;
import static dev.detour.testkit.AccountMother.account;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.detour.core.account.Account;
import dev.detour.core.keys.KeyPolicy;
import dev.detour.core.keys.KeyStrategy;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** §1 max attempts: the plan is the full order; {@link Plan#limitedTo} cuts it for a key's max attempts. */
class PlanTest {
    static final List<Account> POOL = List.of(account(1).serves("gpt-5.6-sol").build(),
            account(2).priority(1).build(), account(3).priority(2).build(), account(4).disabled().build());

    @ParameterizedTest(name = "max attempts {0} → {1}")
    @CsvSource({"0, 1 2 3", "1, 1", "2, 1 2", "3, 1 2 3", "9, 1 2 3", "-1, 1 2 3"})
    void aPlanLimitedToMaxAttemptsKeepsTheFirstCandidatesAndEveryRejection(int maxAttempts, String expected) {
        Plan full = plan(SOL.withPolicy(KeyPolicy.UNRESTRICTED.withStrategy(KeyStrategy.MANUAL)), POOL);

        Plan limited = full.limitedTo(maxAttempts);

        assertEquals(SelectionFixtures.parseIds(expected), ids(limited));
        assertEquals(full.rejections(), limited.rejections());
        assertEquals(full.reason(), limited.reason());
        if (maxAttempts <= 0 || maxAttempts >= 3) {
            assertSame(full, limited);
        }
    }
}
