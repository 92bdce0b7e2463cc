package dev.detour.gateway;

import static dev.detour.testkit.AccountMother.account;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.detour.adapter.proxy.JsonPeeker;
import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.keys.GroupScope;
import dev.detour.core.keys.KeyPolicy;
import dev.detour.core.selection.Candidate;
import dev.detour.core.selection.GroupView;
import dev.detour.core.selection.PoolErrorCode;
import dev.detour.core.selection.SelectionPipeline;
import dev.detour.core.selection.SelectionRequest;
import dev.detour.gateway.admission.SmartKeyFacts;
import dev.detour.gateway.live.LoadDistribution;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.gateway.port.ClientCall;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.KeyEntry;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * N-10: a key limited to one group is planned over that group's accounts only (a pool of 200 accounts in other
 * groups costs it nothing per request); a refusal is planned over the whole pool, so it still names every
 * account and tells a scope that removed a server from a model nobody serves (K-2).
 */
class RouterGroupScopeTest {
    private static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");
    private static final KeyPolicy GROUP_TWO = KeyPolicy.UNRESTRICTED.withGroups(GroupScope.only(2L));
    private final Router router = new Router(new SelectionPipeline(), Router.THREAD_RANDOM, SmartKeyFacts.none(),
            new LoadDistribution(null, null));

    @Test
    void theViewIndexesEachGroupsAccountsInPoolOrderAndGivesOtherScopesTheWholePool() {
        Account a1 = account(1).group(1).serves("gpt").build();
        Account a2 = account(2).group(2).serves("gpt").build();
        Account a3 = account(3).group(1).serves("gpt").build();
        Account a4 = account(4).group(2).serves("gpt").build();
        PoolSnapshot.View view = view(a1, a2, a3, a4);

        assertEquals(List.of(a2, a4), view.routesFor(GroupScope.only(2L)).accounts());
        assertSame(view.routesFor(GroupScope.only(2L)), view.routesFor(GroupScope.only(2L)),
                "one group's pool per view: what its accounts serve is kept with it");
        assertEquals(List.of(), view.routesFor(GroupScope.only(9L)).accounts());
        assertSame(view.accounts(), view.routes().accounts());
        assertSame(view.routes(), view.routesFor(GroupScope.ALL));
        assertSame(view.routes(), view.routesFor(GroupScope.allExcept(1L)));
        assertSame(view.routes(), view.routesFor(new GroupScope(false, Set.of(1L, 2L), Set.of())));
        PoolSnapshot.View patched = view.withGroup(GroupView.plain(2));
        assertSame(view.routesFor(GroupScope.only(2L)), patched.routesFor(GroupScope.only(2L)),
                "a group patch keeps the index (accounts and model rows are unchanged)");
    }

    @Test
    void aViewsGroupsAreFixedOnceSoEveryRequestTakesThemWithoutACopy() {
        Map<Long, GroupView> loaded = new java.util.HashMap<>(Map.of(1L, GroupView.plain(1)));
        PoolSnapshot.View view = new PoolSnapshot.View(1, List.of(), Map.of(), Map.of(), loaded, Map.of(), Map.of(),
                Map.of());
        loaded.put(2L, GroupView.plain(2));

        assertEquals(Set.of(1L), view.groups().keySet(), "the view keeps the groups it was made with");
        assertSame(view.groups(), new SelectionRequest(EndpointFamily.CHAT_COMPLETIONS, "gpt", KeyPolicy.UNRESTRICTED,
                view.groups()).groups());
        PoolSnapshot.View patched = view.withGroup(GroupView.plain(3));
        assertSame(patched.groups(), new SelectionRequest(EndpointFamily.CHAT_COMPLETIONS, "gpt",
                KeyPolicy.UNRESTRICTED, patched.groups()).groups(), "a group patch's groups too");
    }

    @Test
    void aKeyLimitedToOneGroupIsServedFromThatGroupWithoutScreeningTheOthers() {
        PoolSnapshot.View view = view(account(1).group(1).serves("gpt").build(), account(2).group(2).serves("gpt").build(),
                account(3).group(1).serves("gpt").build(), account(4).group(2).serves("gpt").build());

        Router.Decision decision = router.decide(view, call("gpt", GROUP_TWO), NOW);

        assertNull(decision.refusal());
        assertEquals(List.of(2L, 4L), decision.plan().candidates().stream().map(Candidate::account).map(Account::id)
                .sorted().toList());
        assertEquals(List.of(), decision.plan().rejections(), "the other group's accounts were never screened");
    }

    @Test
    void aRefusalIsPlannedOverTheWholePoolAndNamesEveryAccount() {
        PoolSnapshot.View view = view(account(1).group(1).serves("gpt").build(),
                account(2).group(2).serves("claude").build());

        Router.Decision decision = router.decide(view, call("gpt", GROUP_TWO), NOW);

        assertEquals(PoolErrorCode.NO_ELIGIBLE_ROUTE.code(), decision.refusal().code(),
                "account 1 would serve it: the key's scope removed it (not model_unmatched)");
        assertEquals(List.of("1:rejected_group_scope", "2:rejected_model_unmapped"), decision.plan().rejections()
                .stream().map(r -> r.accountId() + ":" + r.reason().wire()).toList());
    }

    private static PoolSnapshot.View view(Account... accounts) {
        Map<Long, Account> byId = new LinkedHashMap<>();
        for (Account a : accounts) {
            byId.put(a.id(), a);
        }
        return new PoolSnapshot.View(1, List.of(accounts), byId, Map.of(),
                Map.of(1L, GroupView.plain(1), 2L, GroupView.plain(2)), Map.of(), Map.of(), Map.of());
    }

    private static ClientCall call(String model, KeyPolicy policy) {
        byte[] body = ("{\"model\":\"" + model + "\",\"messages\":[]}").getBytes(StandardCharsets.UTF_8);
        return new ClientCall("req-1", EndpointFamily.CHAT_COMPLETIONS, "POST", "/v1/chat/completions",
                List.of(new Header("content-type", "application/json")), body, JsonPeeker.peek(body),
                new KeyEntry(7, "k", true, null, policy), "127.0.0.1", NOW, 0);
    }
}
