package dev.detour.core.selection;

import static dev.detour.testkit.AccountMother.account;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.Platform;
import dev.detour.core.keys.GroupScope;
import dev.detour.core.keys.KeyPolicy;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** SPEC P-9: GET /v1/models lists the client-facing names a key may reach. */
class ModelCatalogTest {

    @Test
    void listsTheUnionOfExactMappingNamesSortedAndDeduplicated() {
        List<String> models = ModelCatalog.clientModels(List.of(
                account(1).maps("gpt-5.6-sol", "upstream-sol").maps("glm-5.3", "upstream-glm").build(),
                account(2).maps("glm-5.3", "other-glm").maps("*", "fallback").build()), KeyPolicy.UNRESTRICTED);

        assertEquals(List.of("glm-5.3", "gpt-5.6-sol"), models);
    }

    @Test
    void doesNotHideModelsOfAccountsInAFailureStateButHidesDisabledArchivedAndOutOfScopeOnes() {
        List<String> models = ModelCatalog.clientModels(List.of(
                account(1).serves("errored").status(AccountStatus.ERROR).build(),
                account(2).serves("off").disabled().build(),
                account(3).serves("gone").archived().build(),
                account(4).group(9).serves("elsewhere").build()),
                KeyPolicy.UNRESTRICTED.withGroups(GroupScope.allExcept(9L)));

        assertEquals(List.of("errored"), models);
    }

    @Test
    void theKeysAllowedListFiltersTheCatalogue() {
        KeyPolicy glmOnly = KeyPolicy.UNRESTRICTED.withAllowedModels(Set.of("glm-5.3", "not-served"));

        List<String> models = ModelCatalog.clientModels(List.of(account(1).serves("glm-5.3", "gpt-5.6-sol").build()),
                glmOnly);

        assertEquals(List.of("glm-5.3"), models);
    }

    @Test
    void aPatternIsNeverListedButItsConcreteTargetAndTheKeysNamedModelsItTakesAre() {
        List<Account> accounts = List.of(account(1).maps("claude-sonnet-*", "claude-sonnet-4-5")
                .maps("claude-opus-*", "*").maps("gpt-*", "glm-up").build());
        List<String> open = ModelCatalog.clientModels(accounts, KeyPolicy.UNRESTRICTED);
        List<String> named = ModelCatalog.clientModels(accounts,
                KeyPolicy.UNRESTRICTED.withAllowedModels(Set.of("claude-opus-4-1", "claude-haiku-4-5")));

        assertEquals(List.of("claude-sonnet-4-5"), open, "glm-up is no name gpt-* takes; claude-opus-* names none");
        assertEquals(List.of("claude-opus-4-1"), named, "claude-haiku-4-5 is not served");
    }

    @Test
    void servesAnswersForEveryNameSelectionWouldRouteAndNoOther() {
        List<Account> accounts = List.of(account(1).maps("claude-sonnet-*", "sonnet-up").build(),
                account(2).group(9).serves("glm-5.3").build());
        KeyPolicy noGroup9 = KeyPolicy.UNRESTRICTED.withGroups(GroupScope.allExcept(9L));

        assertTrue(ModelCatalog.serves(accounts, KeyPolicy.UNRESTRICTED, "claude-sonnet-4-5-20250929"));
        assertTrue(ModelCatalog.serves(accounts, KeyPolicy.UNRESTRICTED, "glm-5.3"));
        assertFalse(ModelCatalog.serves(accounts, noGroup9, "glm-5.3"), "out of the key's scope");
        assertFalse(ModelCatalog.serves(accounts, KeyPolicy.UNRESTRICTED, "claude-opus-4-1"));
        assertFalse(ModelCatalog.serves(accounts, KeyPolicy.UNRESTRICTED.withAllowedModels(Set.of("glm-5.3")),
                "claude-sonnet-4-5"), "the key may not use it");
        assertTrue(ModelCatalog.serves(List.of(account(3).build()), KeyPolicy.UNRESTRICTED, "anything"),
                "a pass-through account takes any name");
    }

    @Test
    void aPassThroughAccountAddsNothingUnlessTheKeyNamesItsModels() {
        List<String> open = ModelCatalog.clientModels(List.of(account(1).build()), KeyPolicy.UNRESTRICTED);
        List<String> named = ModelCatalog.clientModels(List.of(account(1).build(),
                account(2).serves("glm-5.3").build()),
                KeyPolicy.UNRESTRICTED.withAllowedModels(Set.of("claude-x", "glm-5.3")));

        assertEquals(List.of(), open);
        assertEquals(List.of("claude-x", "glm-5.3"), named);
    }

    @Test
    void anAnthropicCallerSeesModelsMappedOnlyOnAnOpenAiCompatibleAccountAndAnOpenAiCallerThoseOfAnAnthropicOne() {
        List<Account> accounts = List.of(
                account(1).platform(Platform.ANTHROPIC).serves("claude-sonnet-4-5").build(),
                account(2).serves("glm-5.3").build(), // openai-compatible: chat, responses, … — reached by a bridge
                account(3).families(EndpointFamily.EMBEDDINGS).serves("text-embedding-3-small").build());

        assertEquals(List.of("claude-sonnet-4-5", "glm-5.3"), ModelCatalog.clientModels(accounts,
                KeyPolicy.UNRESTRICTED, EndpointFamily.Protocol.ANTHROPIC), "embeddings are never bridged");
        assertEquals(List.of("claude-sonnet-4-5", "glm-5.3", "text-embedding-3-small"), ModelCatalog.clientModels(
                accounts, KeyPolicy.UNRESTRICTED, EndpointFamily.Protocol.OPENAI));
        assertTrue(ModelCatalog.serves(accounts, KeyPolicy.UNRESTRICTED, "glm-5.3", EndpointFamily.Protocol.ANTHROPIC));
        assertFalse(ModelCatalog.serves(accounts, KeyPolicy.UNRESTRICTED, "text-embedding-3-small",
                EndpointFamily.Protocol.ANTHROPIC));
    }
}
