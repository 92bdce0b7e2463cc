package dev.detour.core.selection;

import static dev.detour.testkit.AccountMother.account;
import static dev.detour.testkit.AccountMother.coolingModel;
import static dev.detour.testkit.AccountMother.modelState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** SPEC S-1 steps 5–6 and S-2 (seed: the partition decision order, the fallback when the whole pool is cooling). */
class SelectionPartitionTest {
    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final Instant SOON = NOW.plusSeconds(10);
    static final Instant LATER = NOW.plusSeconds(60);
    static final Instant PAST = NOW.minusSeconds(1);
    static final SelectionRequest SOL = SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, "gpt-5.6-sol");

    static Plan plan(SelectionRequest request, List<Account> accounts, List<ModelState> states) {
        return new SelectionPipeline().plan(request, accounts, ModelStateKey.index(states), NOW, new SeededRandom(7));
    }

    static Account sol(long id) {
        return account(id).maps("gpt-5.6-sol", "upstream-sol").build();
    }

    static Stream<Arguments> partitionOrder() {
        return Stream.of(
                Arguments.of("no model row", null, null, null),
                Arguments.of("ok row, cooldown expired", ModelStatus.OK, PAST, null),
                Arguments.of("ok row without cooldown", ModelStatus.OK, null, null),
                Arguments.of("ok row cooling", ModelStatus.OK, SOON, ReasonCode.REJECTED_COOLING),
                Arguments.of("paused row", ModelStatus.PAUSED, null, ReasonCode.REJECTED_MODEL_PAUSED),
                Arguments.of("paused row that is also cooling", ModelStatus.PAUSED, SOON,
                        ReasonCode.REJECTED_MODEL_PAUSED),
                Arguments.of("error row", ModelStatus.ERROR, null, ReasonCode.REJECTED_MODEL_ERROR),
                Arguments.of("error row with expired cooldown", ModelStatus.ERROR, PAST,
                        ReasonCode.REJECTED_MODEL_ERROR));
    }

    @ParameterizedTest(name = "{0} → {3}")
    @MethodSource("partitionOrder")
    void theModelRowDecidesDroppedCoolingOrEligible(String label, ModelStatus status, Instant cooldown,
            ReasonCode expected) {
        List<ModelState> rows = status == null ? List.of() : List.of(modelState(2, "upstream-sol", status, cooldown));

        Plan plan = plan(SOL, List.of(sol(1), sol(2)), rows);

        List<Long> planned = plan.candidates().stream().map(Candidate::accountId).toList();
        assertEquals(expected == null ? List.of(1L, 2L) : List.of(1L), planned.stream().sorted().toList(), label);
        assertEquals(expected, plan.rejectionOf(2), label);
    }

    @Test
    void accountCooldownBreakerAndGroupHaltEachMakeAnAccountCooling() {
        Account cooled = account(2).serves("gpt-5.6-sol").coolingUntil(SOON).build();
        Account breakerOpen = account(3).serves("gpt-5.6-sol").breakerOpenUntil(SOON).build();
        Account halted = account(4).group(7).serves("gpt-5.6-sol").build();
        SelectionRequest request = SOL.withGroups(Map.of(7L, new GroupView(7, GroupView.RATIO_ONE, LATER)));

        Plan plan = plan(request, List.of(account(1).serves("gpt-5.6-sol").build(), cooled, breakerOpen, halted),
                List.of());

        assertEquals(List.of(1L), plan.candidates().stream().map(Candidate::accountId).toList());
        assertEquals(List.of(new Rejection(2, ReasonCode.REJECTED_COOLING, SOON),
                new Rejection(3, ReasonCode.REJECTED_COOLING, SOON),
                new Rejection(4, ReasonCode.REJECTED_GROUP_HALTED, LATER)), plan.rejections());
    }

    @Test
    void anExpiredAccountCooldownOrHaltNoLongerCools() {
        Account recovered = account(1).serves("gpt-5.6-sol").coolingUntil(PAST).build();
        SelectionRequest request = SOL.withGroups(Map.of(1L, new GroupView(1, GroupView.RATIO_ONE, PAST)));

        Plan plan = plan(request, List.of(recovered), List.of());

        assertEquals(ReasonCode.SELECTED_PRIORITY, plan.reason());
        assertNull(plan.candidates().get(0).coolingUntil());
    }

    @Test
    void coolingAccountsAreNotAppendedBehindEligibleOnes() {
        Plan plan = plan(SOL, List.of(sol(1), sol(2)), List.of(coolingModel(1, "upstream-sol", SOON)));

        assertEquals(List.of(2L), plan.candidates().stream().map(Candidate::accountId).toList());
        assertEquals(ReasonCode.REJECTED_COOLING, plan.rejectionOf(1));
    }

    @Test
    void theRecoveryTimeIsTheLaterOfAccountAndModelCooldown() {
        Account cooled = account(1).maps("gpt-5.6-sol", "upstream-sol").coolingUntil(SOON).build();

        Plan plan = plan(SOL, List.of(cooled), List.of(coolingModel(1, "upstream-sol", LATER)));

        assertEquals(LATER, plan.candidates().get(0).coolingUntil());
    }

    @Test
    void whenAllAreCoolingTheSoonestRecoveringOneIsProbedAlone() {
        Plan plan = plan(SOL, List.of(sol(1), sol(2), sol(3)), List.of(coolingModel(1, "upstream-sol", LATER),
                coolingModel(2, "upstream-sol", SOON), coolingModel(3, "upstream-sol", LATER.plusSeconds(5))));

        assertTrue(plan.isSelected());
        assertEquals(ReasonCode.PROBE_FALLBACK_SOONEST_RECOVERY, plan.reason());
        assertEquals(1, plan.candidates().size());
        Candidate probe = plan.candidates().get(0);
        assertEquals(2, probe.accountId());
        assertEquals(SOON, probe.coolingUntil());
        assertEquals("upstream-sol", probe.upstreamModel());
        assertEquals(List.of(new Rejection(1, ReasonCode.REJECTED_COOLING, LATER),
                new Rejection(3, ReasonCode.REJECTED_COOLING, LATER.plusSeconds(5))), plan.rejections());
    }

    @Test
    void equalRecoveryTimesProbeTheEarlierAccountInPoolOrder() {
        List<ModelState> rows = List.of(coolingModel(5, "upstream-sol", SOON), coolingModel(3, "upstream-sol", SOON));

        Plan plan = plan(SOL, List.of(sol(5), sol(3)), rows);

        assertEquals(5, plan.candidates().get(0).accountId());
    }

    @Test
    void pausedAndErrorRowsNeverGetTheProbeFallback() {
        List<ModelState> rows = List.of(modelState(1, "upstream-sol", ModelStatus.PAUSED, null),
                modelState(2, "upstream-sol", ModelStatus.ERROR, null), coolingModel(3, "upstream-sol", LATER));

        Plan plan = plan(SOL, List.of(sol(1), sol(2), sol(3)), rows);

        assertEquals(List.of(3L), plan.candidates().stream().map(Candidate::accountId).toList());
        assertEquals(ReasonCode.PROBE_FALLBACK_SOONEST_RECOVERY, plan.reason());
    }

    @Test
    void onlyPausedOrErrorRowsLeftIsModelUnavailable() {
        List<ModelState> rows = List.of(modelState(1, "upstream-sol", ModelStatus.PAUSED, null),
                modelState(2, "upstream-sol", ModelStatus.ERROR, SOON));

        Plan plan = plan(SOL, List.of(sol(1), sol(2)), rows);

        assertEquals(PoolErrorCode.MODEL_UNAVAILABLE, plan.error());
        assertEquals("route_pool.model_unavailable", plan.error().code());
        assertEquals(List.of(new Rejection(1, ReasonCode.REJECTED_MODEL_PAUSED),
                new Rejection(2, ReasonCode.REJECTED_MODEL_ERROR)), plan.rejections());
    }

    @Test
    void aCooldownAloneNeverProducesModelUnavailable() {
        Plan plan = plan(SOL, List.of(sol(1)), List.of(coolingModel(1, "upstream-sol", LATER)));

        assertTrue(plan.isSelected());
        assertEquals(ReasonCode.PROBE_FALLBACK_SOONEST_RECOVERY, plan.reason());
    }

    @Test
    void whenEveryCoolingRouteIsInAHaltedGroupTheRequestIsHaltedWithTheEarliestHaltEnd() {
        Account a = account(1).group(7).serves("gpt-5.6-sol").build();
        Account b = account(2).group(8).serves("gpt-5.6-sol").build();
        SelectionRequest request = SOL.withGroups(Map.of(7L, new GroupView(7, GroupView.RATIO_ONE, LATER),
                8L, new GroupView(8, GroupView.RATIO_ONE, SOON)));

        Plan plan = plan(request, List.of(a, b), List.of());

        assertEquals(PoolErrorCode.HALTED, plan.error());
        assertEquals(503, plan.error().httpStatus());
        assertEquals(SOON, plan.retryAfter());
        assertEquals(List.of(new Rejection(1, ReasonCode.REJECTED_GROUP_HALTED, LATER),
                new Rejection(2, ReasonCode.REJECTED_GROUP_HALTED, SOON)), plan.rejections());
    }

    @Test
    void aTimeCooledRouteIsProbedBeforeAHaltedGroupIsConsidered() {
        Account halted = account(1).group(7).serves("gpt-5.6-sol").build();
        Account cooled = account(2).serves("gpt-5.6-sol").coolingUntil(LATER).build();
        SelectionRequest request = SOL.withGroups(Map.of(7L, new GroupView(7, GroupView.RATIO_ONE, SOON)));

        Plan plan = plan(request, List.of(halted, cooled), List.of());

        assertEquals(2, plan.candidates().get(0).accountId());
        assertEquals(ReasonCode.REJECTED_GROUP_HALTED, plan.rejectionOf(1));
    }

    @Test
    void aHealthyAccountForAnotherModelDoesNotHideTheCoolingOneThatServesThisModel() {
        // seed: A serves only glm-5.3 and is healthy, B serves only gpt-5.6-sol and is cooling
        Account a = account(1).serves("glm-5.3").build();
        Account b = account(2).serves("gpt-5.6-sol").coolingUntil(SOON).build();

        Plan plan = plan(SOL, List.of(a, b), List.of());

        assertTrue(plan.isSelected());
        assertEquals(List.of(2L), plan.candidates().stream().map(Candidate::accountId).toList());
        assertEquals(ReasonCode.PROBE_FALLBACK_SOONEST_RECOVERY, plan.reason());
        assertEquals(ReasonCode.REJECTED_MODEL_UNMAPPED, plan.rejectionOf(1));
    }

    @Test
    void modelStateIsKeyedByAccountAndModelKeyNeverByModelAlone() {
        Account a = account(1).maps("gpt-5.6-sol", "relay-a-sol").build();
        Account b = account(2).maps("gpt-5.6-sol", "relay-b-sol").build();
        List<ModelState> rows = List.of(coolingModel(1, "relay-a-sol", SOON),
                coolingModel(1, "relay-b-sol", SOON), coolingModel(2, "relay-a-sol", SOON),
                modelState(2, "gpt-5.6-sol", ModelStatus.PAUSED, null));

        Plan plan = plan(SOL, List.of(a, b), rows);

        assertEquals(List.of(2L), plan.candidates().stream().map(Candidate::accountId).toList());
        assertEquals("relay-b-sol", plan.candidates().get(0).modelKey());
        assertEquals(ReasonCode.REJECTED_COOLING, plan.rejectionOf(1));
    }

    @Test
    void aOneMillionContextVariantSharesTheBaseModelsRecord() {
        Account passThrough = account(1).families(EndpointFamily.MESSAGES).build();
        Account other = account(2).families(EndpointFamily.MESSAGES).build();
        SelectionRequest oneM = SelectionRequest.of(EndpointFamily.MESSAGES, "claude-sonnet-alias[1m]");
        List<Account> pool = List.of(passThrough, other);

        Plan plan = plan(oneM, pool, List.of(coolingModel(1, "claude-sonnet-alias", SOON)));

        assertEquals(List.of(2L), plan.candidates().stream().map(Candidate::accountId).toList());
        assertEquals("claude-sonnet-alias[1m]", plan.candidates().get(0).upstreamModel());
        assertEquals("claude-sonnet-alias", plan.candidates().get(0).modelKey());
        assertEquals(ReasonCode.REJECTED_COOLING, plan.rejectionOf(1));
    }

    @Test
    void aCatchAllFunnelsEveryClientNameIntoOneModelKey() {
        Account catchAll = account(1).maps("glm-5.3", "upstream-glm").maps("*", "upstream-any").build();
        List<ModelState> rows = List.of(coolingModel(1, "upstream-any", LATER));

        Plan exact = plan(SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, "glm-5.3"), List.of(catchAll), rows);
        Plan stray = plan(SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, "whatever-9"), List.of(catchAll), rows);

        assertEquals(ReasonCode.SELECTED_PRIORITY, exact.reason());
        assertEquals("upstream-glm", exact.candidates().get(0).upstreamModel());
        assertEquals(ReasonCode.PROBE_FALLBACK_SOONEST_RECOVERY, stray.reason());
        assertEquals("upstream-any", stray.candidates().get(0).modelKey());
    }

    @Test
    void aPassThroughCatchAllKeepsTheRequestedName() {
        Account catchAll = account(1).maps("*", "*").build();

        Plan plan = plan(SOL, List.of(catchAll), List.of(modelState(1, "gpt-5.6-sol", ModelStatus.PAUSED, null)));

        assertEquals(PoolErrorCode.MODEL_UNAVAILABLE, plan.error());
        assertEquals(ReasonCode.REJECTED_MODEL_PAUSED, plan.rejectionOf(1));
    }

    @Test
    void aRequestWithoutAModelIgnoresModelRowsButHonoursTheAccountCooldown() {
        Account pausedModel = account(1).build();
        Account cooled = account(2).coolingUntil(SOON.plus(Duration.ofSeconds(1))).build();
        SelectionRequest noModel = SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, null);

        Plan plan = plan(noModel, List.of(pausedModel, cooled), List.of(modelState(1, "x", ModelStatus.PAUSED, null)));

        assertEquals(List.of(1L), plan.candidates().stream().map(Candidate::accountId).toList());
        assertEquals(ReasonCode.REJECTED_COOLING, plan.rejectionOf(2));
    }

    @Test
    void everyAccountOfThePoolIsEitherPlannedOrRejectedExactlyOnce() {
        List<Account> pool = List.of(sol(1), account(2).disabled().build(), account(3).serves("glm-5.3").build(),
                sol(4), sol(5), account(6).families(EndpointFamily.MESSAGES).build(), sol(7));
        List<ModelState> rows = List.of(modelState(4, "upstream-sol", ModelStatus.PAUSED, null),
                coolingModel(5, "upstream-sol", SOON));

        Plan plan = plan(SOL, pool, rows);

        List<Long> seen = new java.util.ArrayList<>(plan.candidates().stream().map(Candidate::accountId).toList());
        plan.rejections().forEach(r -> seen.add(r.accountId()));
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L), seen.stream().sorted().toList());
        assertEquals(List.of(ReasonCode.REJECTED_ACCOUNT_STATUS, ReasonCode.REJECTED_MODEL_UNMAPPED,
                ReasonCode.REJECTED_CONTRACT_MISMATCH, ReasonCode.REJECTED_MODEL_PAUSED, ReasonCode.REJECTED_COOLING),
                plan.rejections().stream().map(Rejection::reason).toList());
    }
}
