package dev.detour.core.selection;

import static dev.detour.core.selection.SelectionFixtures.MODEL;
import static dev.detour.core.selection.SelectionFixtures.NOW;
import static dev.detour.core.selection.SelectionFixtures.SOL;
import static dev.detour.core.selection.SelectionFixtures.groups;
import static dev.detour.core.selection.SelectionFixtures.ids;
import static dev.detour.core.selection.SelectionFixtures.parseIds;
import static dev.detour.core.selection.SelectionFixtures.plan;
import static dev.detour.testkit.AccountMother.account;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.core.account.Account;
import dev.detour.core.keys.GroupScope;
import dev.detour.core.keys.KeyPolicy;
import dev.detour.core.keys.KeyStrategy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SPEC S-1 step 1 / K-2: the key's ratio ceiling (0 = site default) under the site's absolute maximum. */
class RatioCeilingTest {
    // seed smart-router §6.5: candidates at 0.02x, 0.08x and 0.16x
    static final List<Account> POOL = List.of(account(1).group(1).serves(MODEL).build(),
            account(2).group(2).serves(MODEL).build(), account(3).group(3).serves(MODEL).build());
    static final Map<Long, GroupView> RATIOS = groups(1, 20_000, 2, 80_000, 3, 160_000);

    static SelectionRequest withCeiling(long keyPpm, long siteDefault, long siteMax) {
        return SOL.withPolicy(KeyPolicy.UNRESTRICTED.withMaxRatioPpm(keyPpm)).withGroups(RATIOS)
                .withSettings(SelectionSettings.DEFAULTS.withRatioCeilings(siteDefault, siteMax));
    }

    @ParameterizedTest(name = "key {0}, site default {1}, absolute {2} → {3}")
    @CsvSource({
        "0, 0, 0, 0",
        "500000, 0, 0, 500000",
        "0, 1000000, 0, 1000000",
        "0, 1000000, 3000000, 1000000",
        "5000000, 1000000, 3000000, 3000000",
        "2000000, 1000000, 0, 2000000",
        "0, 0, 2000000, 2000000"})
    void theEffectiveCeilingIsTheKeysOrTheSiteDefaultCappedByTheAbsoluteMaximum(long key, long siteDefault,
            long siteMax, long expected) {
        assertEquals(expected, withCeiling(key, siteDefault, siteMax).ratioCeilingPpm());
    }

    @ParameterizedTest(name = "ceiling {0} → planned [{1}]")
    @CsvSource({
        "50000, 1",
        "100000, 1 2",
        "200000, 1 2 3",
        "80000, 1 2",
        "0, 1 2 3"})
    void routesAboveTheCeilingAreRejectedAndTheRestStayPlanned(long ceiling, String planned) {
        Plan plan = plan(withCeiling(ceiling, 0, 0), POOL);

        assertEquals(parseIds(planned), ids(plan).stream().sorted().toList());
        for (Account a : POOL) {
            boolean over = !parseIds(planned).contains(a.id());
            assertEquals(over ? ReasonCode.REJECTED_RATIO_CEILING : null, plan.rejectionOf(a.id()));
        }
    }

    // seed §6.5's table when the 0.02x route fails: 0.05x has nothing else (the failing route is
    // only the S-2 fallback, the others are explained as over the ceiling); 0.10x moves up to 0.08x;
    // 0.20x keeps the whole three-tier failover
    @ParameterizedTest(name = "ceiling {0}, the 0.02x route cooling → [{1}] {2}")
    @CsvSource({
        "50000, 1, probe_fallback_soonest_recovery, 1:- 2:rejected_ratio_ceiling 3:rejected_ratio_ceiling",
        "100000, 2, selected_lowest_price, 1:rejected_cooling 2:- 3:rejected_ratio_ceiling",
        "200000, 2 3, selected_lowest_price, 1:rejected_cooling 2:- 3:-"})
    void theSeedsCeilingTableWhenTheCheapRouteFails(long ceiling, String planned, String reason, String rejections) {
        List<Account> pool = List.of(account(1).group(1).serves(MODEL).coolingUntil(NOW.plusSeconds(30)).build(),
                POOL.get(1), POOL.get(2));
        SelectionRequest request = withCeiling(ceiling, 0, 0);
        Plan plan = plan(request.withPolicy(request.keyPolicy().withStrategy(KeyStrategy.PRICE)), pool);

        assertEquals(parseIds(planned), ids(plan));
        assertEquals(reason, plan.reason().wire());
        for (String expected : rejections.split(" ")) {
            ReasonCode got = plan.rejectionOf(Long.parseLong(expected.substring(0, 1)));
            assertEquals(expected, expected.charAt(0) + ":" + (got == null ? "-" : got.wire()));
        }
    }

    @Test
    void theSiteDefaultAppliesToAKeyWithoutItsOwnCeiling() {
        Plan plan = plan(withCeiling(0, 100_000, 0), POOL);

        assertEquals(ReasonCode.REJECTED_RATIO_CEILING, plan.rejectionOf(3));
    }

    @Test
    void noKeyCeilingLiftsARouteAboveTheAbsoluteMaximum() {
        Plan plan = plan(withCeiling(10_000_000, 0, 100_000), POOL);

        assertEquals(ReasonCode.REJECTED_RATIO_CEILING, plan.rejectionOf(3));
    }

    @Test
    void whenTheCeilingRemovesEveryRouteOfAMappedModelItIsNoEligibleRouteWithTheReason() {
        Plan plan = plan(withCeiling(10_000, 0, 0), POOL);

        assertEquals(PoolErrorCode.NO_ELIGIBLE_ROUTE, plan.error());
        assertEquals(List.of(ReasonCode.REJECTED_RATIO_CEILING), plan.policyRejectionReasons());
    }

    @Test
    void scopeAndCeilingTogetherAreBothNamed() {
        KeyPolicy policy = KeyPolicy.UNRESTRICTED.withMaxRatioPpm(50_000).withGroups(GroupScope.allExcept(1L));

        Plan plan = plan(SOL.withPolicy(policy).withGroups(RATIOS), POOL);

        assertEquals(PoolErrorCode.NO_ELIGIBLE_ROUTE, plan.error());
        assertEquals(List.of(ReasonCode.REJECTED_GROUP_SCOPE, ReasonCode.REJECTED_RATIO_CEILING),
                plan.policyRejectionReasons());
    }

    @Test
    void anOverCeilingAccountThatDoesNotServeTheModelLeavesItUnmatched() {
        List<Account> pool = List.of(account(1).group(1).serves("glm-5.3").build(),
                account(3).group(3).serves("glm-5.3").build());

        Plan plan = plan(withCeiling(50_000, 0, 0), pool);

        assertEquals(PoolErrorCode.MODEL_UNMATCHED, plan.error());
    }

    @Test
    void anOverCeilingRouteIsNeverTheProbeFallback() {
        List<Account> pool = List.of(account(1).group(1).serves(MODEL).coolingUntil(NOW.plusSeconds(30)).build(),
                account(3).group(3).serves(MODEL).build());

        Plan plan = plan(withCeiling(50_000, 0, 0), pool);

        assertEquals(List.of(1L), ids(plan));
        assertEquals(ReasonCode.PROBE_FALLBACK_SOONEST_RECOVERY, plan.reason());
        assertEquals(ReasonCode.REJECTED_RATIO_CEILING, plan.rejectionOf(3));
    }
}
