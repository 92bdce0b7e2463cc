package dev.detour.core.selection;

import static dev.detour.testkit.AccountMother.account;
import static dev.detour.testkit.AccountMother.coolingModel;
import static dev.detour.testkit.AccountMother.modelState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import dev.detour.core.keys.GroupScope;
import dev.detour.core.keys.KeyPolicy;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * N-10: a pool keeps what S-1 steps 2–5 make of each account per (endpoint family, model) — nothing that depends
 * on the key, the time or the load — and a plan over a kept pool is exactly the plan over its accounts.
 */
class PoolRoutesTest {
    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private static final Instant SOON = NOW.plusSeconds(10);
    private static final String SOL = "gpt-5.6-sol";

    private final List<Account> accounts = List.of(
            account(1).maps(SOL, "upstream-sol").build(),
            account(2).serves(SOL).disabled().build(),
            account(3).serves(SOL).status(AccountStatus.ERROR).build(),
            account(4).serves(SOL).families(EndpointFamily.MESSAGES).build(),
            account(5).serves("other-model").build(),
            account(6).group(2).serves(SOL).priority(2).build(),
            account(7).group(2).serves(SOL).coolingUntil(SOON).build(),
            account(8).group(3).serves(SOL).build(),
            account(9).group(3).serves(SOL).build(),
            account(10).serves(SOL).counts(5, 5).build());
    private final List<ModelState> rows = List.of(
            modelState(8, SOL, ModelStatus.PAUSED, null),
            coolingModel(9, SOL, SOON),
            modelState(10, SOL, ModelStatus.OK, null));
    private final Map<ModelStateKey, ModelState> models = ModelStateKey.index(rows);

    @Test
    void whatEachAccountServesIsWorkedOutOncePerFamilyAndModel() {
        PoolRoutes pool = PoolRoutes.of(accounts, models);

        ServedRoutes sol = pool.served(EndpointFamily.CHAT_COMPLETIONS, SOL);

        assertSame(sol, pool.served(EndpointFamily.CHAT_COMPLETIONS, SOL));
        assertNotSame(sol, pool.served(EndpointFamily.MESSAGES, SOL));
        assertNotSame(sol, pool.served(EndpointFamily.CHAT_COMPLETIONS, "other-model"));
        assertSame(pool.served(EndpointFamily.CHAT_COMPLETIONS, null), pool.served(EndpointFamily.CHAT_COMPLETIONS, null));
        assertEquals(4, pool.kept());
        assertEquals(new Route(accounts.get(0), "upstream-sol", "upstream-sol"), sol.route(0));
        assertEquals(ReasonCode.REJECTED_ACCOUNT_STATUS, sol.unserved(1));
        assertEquals(ReasonCode.REJECTED_ACCOUNT_STATUS, sol.unserved(2));
        assertEquals(ReasonCode.REJECTED_CONTRACT_MISMATCH, sol.unserved(3));
        assertNull(sol.unserved(4));
        assertNull(sol.route(4), "account 5 does not map the model");
        assertEquals(ModelStatus.PAUSED, sol.state(7).status());
        assertNull(sol.state(0), "no row for account 1's model");
    }

    @Test
    void aPlanOverAKeptPoolIsThePlanOverItsAccountsForEveryKeyAndTime() {
        PoolRoutes pool = PoolRoutes.of(accounts, models);
        SelectionPipeline pipeline = new SelectionPipeline();
        List<SelectionRequest> requests = List.of(
                SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, SOL),
                SelectionRequest.of(EndpointFamily.MESSAGES, SOL),
                SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, "other-model"),
                SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, "nobody-serves-this"),
                SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, null),
                SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, SOL)
                        .withPolicy(KeyPolicy.UNRESTRICTED.withGroups(GroupScope.only(2L))),
                SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, SOL)
                        .withGroups(Map.of(1L, new GroupView(1, GroupView.RATIO_ONE, SOON))));
        for (int round = 0; round < 2; round++) { // the second round reads what the first kept
            for (SelectionRequest request : requests) {
                for (Instant at : List.of(NOW, SOON.plusSeconds(1))) {
                    for (long seed = 1; seed <= 5; seed++) {
                        Plan expected = pipeline.plan(request, accounts, models, at, new SeededRandom(seed));
                        Plan kept = pipeline.plan(request, pool, at, new SeededRandom(seed));
                        String label = request.family() + " " + request.requestedModel() + " "
                                + request.keyPolicy().groups() + " at " + at + " seed " + seed;
                        assertEquals(List.copyOf(expected.candidates()), List.copyOf(kept.candidates()), label);
                        assertEquals(expected.rejections(), kept.rejections(), label);
                        assertEquals(expected.error(), kept.error(), label);
                        assertEquals(expected.retryAfter(), kept.retryAfter(), label);
                    }
                }
            }
        }
    }

    @Test
    void aCooldownIsJudgedAtEachRequestsTimeNotWhenThePoolWasWorkedOut() {
        PoolRoutes pool = PoolRoutes.of(accounts, models);
        SelectionRequest request = SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, SOL);
        SelectionPipeline pipeline = new SelectionPipeline();

        Plan now = pipeline.plan(request, pool, NOW, new SeededRandom(1));
        Plan later = pipeline.plan(request, pool, SOON.plusSeconds(1), new SeededRandom(1));

        assertEquals(ReasonCode.REJECTED_COOLING, now.rejectionOf(7));
        assertEquals(ReasonCode.REJECTED_COOLING, now.rejectionOf(9));
        assertNull(later.rejectionOf(7), "account 7's cooldown has passed");
        assertNull(later.rejectionOf(9), "account 9's model cooldown has passed");
        assertEquals(List.of(1L, 6L, 7L, 9L, 10L), List.copyOf(later.candidates()).stream()
                .map(Candidate::accountId).sorted().toList());
    }

    @Test
    void pastTheBoundModelsAreWorkedOutPerRequestAndNotKept() {
        PoolRoutes pool = PoolRoutes.of(accounts, models);
        SelectionPipeline pipeline = new SelectionPipeline();
        for (int i = 0; i < PoolRoutes.MAX_KEPT + 10; i++) {
            pipeline.plan(SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, "client-name-" + i), pool, NOW,
                    new SeededRandom(1));
        }

        assertEquals(PoolRoutes.MAX_KEPT, pool.kept());
        ServedRoutes first = pool.served(EndpointFamily.CHAT_COMPLETIONS, SOL);
        assertNotSame(first, pool.served(EndpointFamily.CHAT_COMPLETIONS, SOL), "not kept once full");
        Plan plan = pipeline.plan(SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, SOL), pool, NOW,
                new SeededRandom(1));
        assertEquals(pipeline.plan(SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, SOL), accounts, models, NOW,
                new SeededRandom(1)).rejections(), plan.rejections());
    }

    @Test
    void aGroupsSubsetSharesTheModelRowsButKeepsItsOwnRoutes() {
        PoolRoutes pool = PoolRoutes.of(accounts, models);
        PoolRoutes group3 = pool.subset(List.of(accounts.get(7), accounts.get(8)));

        assertSame(pool.models(), group3.models());
        assertEquals(ModelStatus.PAUSED, group3.served(EndpointFamily.CHAT_COMPLETIONS, SOL).state(0).status());
        assertEquals(1, group3.kept());
        assertEquals(0, pool.kept());
    }
}
