package dev.detour.core.selection;

import static dev.detour.testkit.AccountMother.account;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.Platform;
import dev.detour.core.keys.GroupScope;
import dev.detour.core.keys.KeyPolicy;
import dev.detour.testkit.AccountMother;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** SPEC S-1 steps 1–4 and their error codes: which accounts survive, and why the others did not. */
class SelectionStepsTest {
    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final SelectionPipeline PIPELINE = new SelectionPipeline();
    static final SelectionRequest SOL = SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, "gpt-5.6-sol");

    static Plan plan(SelectionRequest request, Account... accounts) {
        return PIPELINE.plan(request, List.of(accounts), Map.of(), NOW, new SeededRandom(42));
    }

    static Stream<Arguments> loadFilter() {
        return Stream.of(
                Arguments.of("enabled, ok, unknown quota", (UnaryOperator<AccountMother>) a -> a, null),
                Arguments.of("quota left", (UnaryOperator<AccountMother>) a -> a.quota(5L), null),
                Arguments.of("disabled", (UnaryOperator<AccountMother>) AccountMother::disabled,
                        ReasonCode.REJECTED_ACCOUNT_STATUS),
                Arguments.of("archived", (UnaryOperator<AccountMother>) AccountMother::archived,
                        ReasonCode.REJECTED_ACCOUNT_STATUS),
                Arguments.of("status warning", (UnaryOperator<AccountMother>) a -> a.status(AccountStatus.WARNING),
                        ReasonCode.REJECTED_ACCOUNT_STATUS),
                Arguments.of("status error", (UnaryOperator<AccountMother>) a -> a.status(AccountStatus.ERROR),
                        ReasonCode.REJECTED_ACCOUNT_STATUS),
                Arguments.of("status revoked", (UnaryOperator<AccountMother>) a -> a.status(AccountStatus.REVOKED),
                        ReasonCode.REJECTED_ACCOUNT_STATUS),
                Arguments.of("status paused", (UnaryOperator<AccountMother>) a -> a.status(AccountStatus.PAUSED),
                        ReasonCode.REJECTED_ACCOUNT_STATUS),
                Arguments.of("quota zero", (UnaryOperator<AccountMother>) a -> a.quota(0L),
                        ReasonCode.REJECTED_ACCOUNT_STATUS),
                Arguments.of("quota negative", (UnaryOperator<AccountMother>) a -> a.quota(-3L),
                        ReasonCode.REJECTED_ACCOUNT_STATUS),
                Arguments.of("serves only /v1/messages",
                        (UnaryOperator<AccountMother>) a -> a.families(EndpointFamily.MESSAGES),
                        ReasonCode.REJECTED_CONTRACT_MISMATCH),
                Arguments.of("anthropic platform serving only its own endpoints",
                        (UnaryOperator<AccountMother>) a -> a.platform(Platform.ANTHROPIC)
                                .families(EndpointFamily.MESSAGES, EndpointFamily.COUNT_TOKENS),
                        ReasonCode.REJECTED_CONTRACT_MISMATCH),
                Arguments.of("anthropic platform by default (B-1: chat through the bridge)",
                        (UnaryOperator<AccountMother>) a -> a.platform(Platform.ANTHROPIC), null),
                Arguments.of("maps other models only", (UnaryOperator<AccountMother>) a -> account(2).serves("glm-5.3"),
                        ReasonCode.REJECTED_MODEL_UNMAPPED),
                Arguments.of("outside the key's groups", (UnaryOperator<AccountMother>) a -> a.group(9),
                        ReasonCode.REJECTED_GROUP_SCOPE));
    }

    @ParameterizedTest(name = "{0} → {2}")
    @MethodSource("loadFilter")
    void eachFilteredAccountIsRecordedWithTheStepThatDroppedIt(String label, UnaryOperator<AccountMother> tweak,
            ReasonCode expected) {
        Account healthy = account(1).serves("gpt-5.6-sol").build();
        Account probed = tweak.apply(account(2).serves("gpt-5.6-sol")).build();
        KeyPolicy groupOne = KeyPolicy.UNRESTRICTED.withGroups(GroupScope.only(1L));

        Plan plan = plan(SOL.withPolicy(groupOne), healthy, probed);

        assertTrue(plan.isSelected());
        assertEquals(expected, plan.rejectionOf(2), label);
        boolean planned = plan.candidates().stream().anyMatch(c -> c.accountId() == 2);
        assertEquals(expected == null, planned, label);
    }

    @Test
    void anAccountWithAConfigErrorIsNeverRoutedThoughItsStoredStatusIsOk() {
        // D-4: its mappings are a stand-in (pass-through here), so it must not even count as a server
        Account broken = account(2).priority(-5).build().withConfigError("model_mappings: not valid JSON");

        Plan plan = plan(SOL, account(1).serves("gpt-5.6-sol").build(), broken);

        assertEquals(ReasonCode.REJECTED_ACCOUNT_STATUS, plan.rejectionOf(2));
        assertEquals(List.of(1L), plan.candidates().stream().map(Candidate::accountId).toList());
        assertEquals(PoolErrorCode.NO_ACCOUNTS, plan(SOL, broken).error());
    }

    @Test
    void scopeIsJudgedFirstSoADisabledAccountOutsideTheScopeIsAScopeRejection() {
        Plan plan = plan(SOL.withPolicy(KeyPolicy.UNRESTRICTED.withGroups(GroupScope.allExcept(9L))),
                account(1).serves("gpt-5.6-sol").build(), account(2).group(9).disabled().build());

        assertEquals(ReasonCode.REJECTED_GROUP_SCOPE, plan.rejectionOf(2));
    }

    @Test
    void anEmptyPoolIsNoAccounts() {
        Plan plan = plan(SOL);

        assertEquals(PoolErrorCode.NO_ACCOUNTS, plan.error());
        assertEquals(503, plan.error().httpStatus()); // P-8' (revised from 502)
        assertEquals("route_pool.no_accounts", plan.error().code());
        assertTrue(plan.candidates().isEmpty());
        assertNull(plan.reason());
    }

    @Test
    void onlyUnloadableAccountsIsNoAccounts() {
        Plan plan = plan(SOL, account(1).disabled().build(), account(2).status(AccountStatus.ERROR).build());

        assertEquals(PoolErrorCode.NO_ACCOUNTS, plan.error());
        assertEquals(2, plan.rejections().size());
    }

    @Test
    void noAccountServingTheEndpointFamilyIsNoAccounts() {
        Plan plan = plan(SelectionRequest.of(EndpointFamily.MESSAGES, "claude-x"),
                account(1).families(EndpointFamily.CHAT_COMPLETIONS, EndpointFamily.EMBEDDINGS).build());

        assertEquals(PoolErrorCode.NO_ACCOUNTS, plan.error());
        assertEquals(ReasonCode.REJECTED_CONTRACT_MISMATCH, plan.rejectionOf(1));
    }

    @Test
    void anOpenAiCompatibleRelayMayServeMessagesWhenTheAccountSaysSo() {
        Account relay = account(1).families(EndpointFamily.CHAT_COMPLETIONS, EndpointFamily.MESSAGES).build();

        Plan plan = plan(SelectionRequest.of(EndpointFamily.MESSAGES, "claude-x"), relay);

        assertTrue(plan.isSelected());
        assertEquals(1, plan.candidates().get(0).accountId());
    }

    @Test
    void aModelNoAccountMapsIsModelUnmatched() {
        Plan plan = plan(SOL, account(1).serves("glm-5.3").build(), account(2).maps("claude-x", "up-claude").build());

        assertEquals(PoolErrorCode.MODEL_UNMATCHED, plan.error());
        assertEquals("route_pool.model_unmatched", plan.error().code());
        assertEquals(List.of(new Rejection(1, ReasonCode.REJECTED_MODEL_UNMAPPED),
                new Rejection(2, ReasonCode.REJECTED_MODEL_UNMAPPED)), plan.rejections());
    }

    @Test
    void whenTheKeysScopeRemovesEveryServingAccountItIsNoEligibleRoute() {
        KeyPolicy onlyGroupTwo = KeyPolicy.UNRESTRICTED.withGroups(GroupScope.only(2L));

        Plan plan = plan(SOL.withPolicy(onlyGroupTwo), account(1).serves("gpt-5.6-sol").build(),
                account(2).group(2).serves("glm-5.3").build());

        assertEquals(PoolErrorCode.NO_ELIGIBLE_ROUTE, plan.error());
        assertEquals("route_pool.no_eligible_route", plan.error().code());
        assertEquals(ReasonCode.REJECTED_GROUP_SCOPE, plan.rejectionOf(1));
        assertEquals(ReasonCode.REJECTED_MODEL_UNMAPPED, plan.rejectionOf(2));
    }

    @Test
    void whenNothingInThePoolServesTheModelTheScopeDoesNotTurnItIntoNoEligibleRoute() {
        KeyPolicy onlyGroupTwo = KeyPolicy.UNRESTRICTED.withGroups(GroupScope.only(2L));

        Plan plan = plan(SOL.withPolicy(onlyGroupTwo), account(1).serves("glm-5.3").build(),
                account(2).group(2).serves("glm-5.3").build());

        assertEquals(PoolErrorCode.MODEL_UNMATCHED, plan.error());
    }

    @Test
    void anOutOfScopeAccountThatCouldNotServeAnywayDoesNotCountAsRemovedByTheKey() {
        KeyPolicy onlyGroupTwo = KeyPolicy.UNRESTRICTED.withGroups(GroupScope.only(2L));

        Plan plan = plan(SOL.withPolicy(onlyGroupTwo), account(1).serves("gpt-5.6-sol").disabled().build());

        assertEquals(PoolErrorCode.NO_ACCOUNTS, plan.error());
    }

    @Test
    void aModelOutsideTheKeysAllowedListIsRefusedBeforeRouting() {
        KeyPolicy glmOnly = KeyPolicy.UNRESTRICTED.withAllowedModels(Set.of("glm-5.3"));

        Plan plan = plan(SOL.withPolicy(glmOnly), account(1).build());

        assertEquals(PoolErrorCode.KEY_MODEL_NOT_ALLOWED, plan.error());
        assertEquals(403, plan.error().httpStatus());
        assertEquals(ReasonCode.REJECTED_MODEL_NOT_ALLOWED, plan.rejectionOf(1));
    }

    @Test
    void theCandidateCarriesTheMappedUpstreamNameAndItsModelKey() {
        Plan plan = plan(SOL, account(1).maps("gpt-5.6-sol", "upstream-sol[1m]").build());

        Candidate only = plan.candidates().get(0);
        assertEquals("upstream-sol[1m]", only.upstreamModel());
        assertEquals("upstream-sol", only.modelKey());
        assertNull(only.coolingUntil());
    }

    @Test
    void aPassThroughAccountServesAnyModelUnderItsOwnName() {
        Plan plan = plan(SOL, account(1).build());

        assertEquals("gpt-5.6-sol", plan.candidates().get(0).upstreamModel());
        assertEquals("gpt-5.6-sol", plan.candidates().get(0).modelKey());
    }

    @Test
    void aRequestWithoutAModelSkipsTheModelFilterAndIsAccountScoped() {
        Plan plan = plan(SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, null),
                account(1).serves("glm-5.3").build());

        assertTrue(plan.isSelected());
        assertNull(plan.candidates().get(0).upstreamModel());
        assertNull(plan.candidates().get(0).modelKey());
        assertFalse(plan.rejections().stream().anyMatch(r -> r.reason() == ReasonCode.REJECTED_MODEL_UNMAPPED));
    }
}
