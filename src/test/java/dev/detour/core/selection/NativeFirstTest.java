package dev.detour.core.selection;

import static dev.detour.testkit.AccountMother.account;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.Platform;
import dev.detour.core.account.Protocols;
import dev.detour.core.keys.KeyPolicy;
import dev.detour.core.keys.KeyStrategy;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** B-1: native before bridged within a tier, through the whole pipeline; which protocol an account is asked in. */
class NativeFirstTest {
    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final SelectionRequest MESSAGES = SelectionRequest.of(EndpointFamily.MESSAGES, "claude-x");

    static List<Long> order(SelectionRequest request, Account... accounts) {
        Plan plan = new SelectionPipeline().plan(request, List.of(accounts), Map.of(), NOW, new SeededRandom(42));
        return plan.candidates().stream().map(Candidate::accountId).toList();
    }

    static Account relay(long id, int priority) {
        return account(id).serves("claude-x").priority(priority).build(); // openai-compatible: Chat + Responses
    }

    static Account anthropic(long id, int priority) {
        return account(id).platform(Platform.ANTHROPIC).serves("claude-x").priority(priority).build();
    }

    @Test
    void aNativeAccountIsTriedBeforeABridgedOneOfTheSameTier() {
        for (long seed = 0; seed < 20; seed++) { // whatever the weighted draw gives, the level decides first
            Plan plan = new SelectionPipeline().plan(MESSAGES, List.of(relay(1, 0), relay(2, 0), anthropic(3, 0)),
                    Map.of(), NOW, new SeededRandom(seed));
            assertEquals(3L, plan.candidates().get(0).accountId());
            assertEquals(3, plan.candidates().size());
        }
    }

    @Test
    void aBridgedAccountOfABetterTierStillComesFirst() {
        assertEquals(List.of(1L, 3L), order(MESSAGES, relay(1, 0), anthropic(3, 5)));
    }

    @Test
    void theManualStrategyKeepsTheOperatorsOrder() {
        SelectionRequest manual = MESSAGES.withPolicy(KeyPolicy.UNRESTRICTED.withStrategy(KeyStrategy.MANUAL));

        assertEquals(List.of(1L, 3L), order(manual, relay(1, 0), anthropic(3, 0)));
    }

    @Test
    void aPlanWithNothingOutOfPlaceIsNotCopied() {
        List<Candidate> ranked = List.of(Candidate.of(new Route(anthropic(3, 0), "claude-x", "claude-x"), null,
                ReasonCode.SELECTED_PRIORITY), Candidate.of(new Route(relay(1, 0), "claude-x", "claude-x"), null,
                ReasonCode.SELECTED_PRIORITY));

        assertSame(ranked, NativeFirst.apply(ranked, EndpointFamily.MESSAGES, KeyStrategy.PRIORITY));
    }

    @Test
    void aDefaultAccountIsAskedInItsOwnProtocolOrBridgedFromTheFirstOfThem() {
        Account relay = relay(1, 0);
        Account official = anthropic(2, 0);

        assertEquals(EndpointFamily.CHAT_COMPLETIONS, Protocols.upstreamFor(relay, EndpointFamily.MESSAGES));
        assertEquals(EndpointFamily.RESPONSES, Protocols.upstreamFor(relay, EndpointFamily.RESPONSES));
        assertEquals(EndpointFamily.MESSAGES, Protocols.upstreamFor(official, EndpointFamily.CHAT_COMPLETIONS));
        assertEquals(EndpointFamily.MESSAGES, Protocols.upstreamFor(official, EndpointFamily.RESPONSES));
        assertEquals(EndpointFamily.EMBEDDINGS, Protocols.upstreamFor(relay, EndpointFamily.EMBEDDINGS));
    }

    @Test
    void aRelayWhoseFamiliesListMessagesStillPassesMessagesThroughNatively() {
        // before bridging, families [chat, messages] meant /v1/messages went through untouched
        Set<EndpointFamily> protocols = Protocols.defaults(Platform.OPENAI_COMPATIBLE,
                Set.of(EndpointFamily.CHAT_COMPLETIONS, EndpointFamily.MESSAGES));

        assertEquals(Set.of(EndpointFamily.CHAT_COMPLETIONS, EndpointFamily.RESPONSES, EndpointFamily.MESSAGES),
                protocols);
        assertEquals(Set.of(EndpointFamily.MESSAGES), Protocols.defaults(Platform.ANTHROPIC,
                Set.of(EndpointFamily.MESSAGES, EndpointFamily.CHAT_COMPLETIONS)));
    }

    @Test
    void anAccountThatDeclaresMessagesServesMessagesNatively() {
        Account both = account(4).serves("claude-x").protocols(EndpointFamily.CHAT_COMPLETIONS,
                EndpointFamily.MESSAGES).build();

        assertEquals(List.of(4L, 1L), order(MESSAGES, relay(1, 0), both));
    }
}
