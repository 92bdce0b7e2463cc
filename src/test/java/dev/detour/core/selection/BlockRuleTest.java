package dev.detour.core.selection;

import static dev.detour.core.selection.SelectionFixtures.MODEL;
import static dev.detour.core.selection.SelectionFixtures.NOW;
import static dev.detour.core.selection.SelectionFixtures.SOL;
import static dev.detour.core.selection.SelectionFixtures.ids;
import static dev.detour.core.selection.SelectionFixtures.plan;
import static dev.detour.testkit.AccountMother.account;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.detour.core.ValidationException;
import dev.detour.core.account.Account;
import dev.detour.core.account.AccountStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SPEC S-10: admin blocks by account, model, endpoint family or group, filtered in steps 1–3, with expiry. */
class BlockRuleTest {
    // account 7 in group 3 maps the requested model to upstream-sol[1m] (model key upstream-sol)
    static final Account BLOCKABLE = account(7).group(3).maps(MODEL, "upstream-sol[1m]").build();
    static final Account OTHER = account(8).group(4).serves(MODEL).build();

    static Plan planWith(BlockRule rule, Account... accounts) {
        return plan(SOL.withBlockRules(List.of(rule)), List.of(accounts));
    }

    @ParameterizedTest(name = "{0} = {1} → blocks account 7: {2}")
    @CsvSource({
        "ACCOUNT, 7, true",
        "ACCOUNT, 8, false",
        "GROUP, 3, true",
        "GROUP, 4, false",
        "ENDPOINT_FAMILY, chat_completions, true",
        "ENDPOINT_FAMILY, responses, false",
        "MODEL, gpt-5.6-sol, true",
        "MODEL, 'upstream-sol[1m]', true",
        "MODEL, upstream-sol, true",
        "MODEL, glm-5.3, false"})
    void eachScopeBlocksWhatItNames(BlockScope scope, String value, boolean blocked) {
        BlockRule rule = new BlockRule(1, scope, value, "abuse", "admin", null);

        Plan plan = planWith(rule, BLOCKABLE, OTHER);

        assertEquals(blocked ? ReasonCode.REJECTED_ADMIN_BLOCK : null, plan.rejectionOf(7));
        assertEquals(blocked, !ids(plan).contains(7L));
    }

    @ParameterizedTest(name = "expires {0} s from now → active: {1}")
    @CsvSource({"1, true", "3600, true", "0, false", "-60, false"})
    void anExpiredRuleIsIgnored(long secondsAhead, boolean active) {
        BlockRule rule = BlockRule.account(7).expiringAt(NOW.plusSeconds(secondsAhead));

        Plan plan = planWith(rule, BLOCKABLE, OTHER);

        assertEquals(active ? ReasonCode.REJECTED_ADMIN_BLOCK : null, plan.rejectionOf(7));
    }

    @Test
    void blockingEveryServingRouteIsNoEligibleRouteNamingTheBlock() {
        Plan plan = planWith(new BlockRule(3, BlockScope.MODEL, MODEL, null, null, null), BLOCKABLE, OTHER);

        assertEquals(PoolErrorCode.NO_ELIGIBLE_ROUTE, plan.error());
        assertEquals(List.of(ReasonCode.REJECTED_ADMIN_BLOCK), plan.policyRejectionReasons());
    }

    @Test
    void aBlockedAccountIsReportedAsBlockedEvenWhenItIsAlsoDisabled() {
        Account disabled = account(7).status(AccountStatus.ERROR).serves(MODEL).build();

        assertEquals(ReasonCode.REJECTED_ADMIN_BLOCK, planWith(BlockRule.account(7), disabled, OTHER).rejectionOf(7));
    }

    @Test
    void aBlockedRouteIsNeverTheProbeFallback() {
        Instant soon = NOW.plusSeconds(20);
        Account coolingBlocked = account(7).serves(MODEL).coolingUntil(soon).build();
        Account coolingLater = account(8).serves(MODEL).coolingUntil(soon.plusSeconds(40)).build();

        Plan plan = planWith(BlockRule.account(7), coolingBlocked, coolingLater);

        assertEquals(List.of(8L), ids(plan));
        assertEquals(ReasonCode.PROBE_FALLBACK_SOONEST_RECOVERY, plan.reason());
    }

    @Test
    void aBlockRuleNeedsAValueAndAKnownScope() {
        assertEquals("validation.block_rule.value", assertThrows(ValidationException.class,
                () -> new BlockRule(1, BlockScope.GROUP, " ", null, null, null)).code());
        assertEquals("validation.block_rule.scope",
                assertThrows(ValidationException.class, () -> BlockScope.fromWire("tenant")).code());
        assertEquals(BlockScope.ENDPOINT_FAMILY, BlockScope.fromWire("endpoint_family"));
    }
}
