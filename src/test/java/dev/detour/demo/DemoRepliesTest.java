package dev.detour.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.failure.AttemptFacts;
import dev.detour.core.failure.Failure;
import dev.detour.core.failure.FailureClassifier;
import dev.detour.core.failure.Reminders;
import dev.detour.core.failure.Scope;
import dev.detour.core.failure.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The demo relays' answers, judged by the real failure classifier: each one means what the demo promises. */
class DemoRepliesTest {
    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

    private static Verdict judge(DemoReply reply, String model) {
        AttemptFacts facts = reply.eventStream() ? AttemptFacts.streamed(reply.status(), reply.headers(), reply.body())
                : AttemptFacts.response(reply.status(), reply.headers(), reply.body());
        return FailureClassifier.classify(facts.forModel(model), NOW);
    }

    @ParameterizedTest(name = "{0} answers {1} with streaming {2} as a success")
    @CsvSource({"HEALTHY,gpt-4o,false", "HEALTHY,gpt-4o,true", "SLOW,deepseek-chat,false", "SLOW,deepseek-chat,true",
        "RATE_LIMITED,gpt-4o-mini-2024-07-18,false", "RATE_LIMITED,gpt-4o-mini-2024-07-18,true"})
    void healthyAnswersAreJudgedSuccessesBufferedAndStreamed(DemoBehaviour behaviour, String model, boolean stream) {
        DemoReply reply = DemoReplies.answer(behaviour, model, stream, 7);
        assertEquals(200, reply.status());
        assertEquals(stream, reply.eventStream());
        assertTrue(judge(reply, model).isSuccess(), reply.body());
        assertTrue(reply.body().contains("\"model\":\"" + model + "\""));
        assertTrue(reply.body().contains("\"total_tokens\":18"), "usage is reported");
    }

    @Test
    void aStreamIsSentAsSeveralFramesEndingInDone() {
        DemoReply reply = DemoReplies.answer(DemoBehaviour.HEALTHY, "gpt-4o", true, 1);
        assertTrue(reply.parts().size() > 3);
        reply.parts().forEach(p -> assertTrue(p.startsWith("data: ") && p.endsWith("\n\n"), p));
        assertEquals("data: [DONE]\n\n", reply.parts().get(reply.parts().size() - 1));
    }

    @Test
    void theSlowRelayWaitsBeforeAnswering() {
        assertEquals(Duration.ofMillis(700), DemoReplies.answer(DemoBehaviour.SLOW, "gpt-4o", false, 1).delay());
        assertEquals(Duration.ZERO, DemoReplies.answer(DemoBehaviour.HEALTHY, "gpt-4o", false, 1).delay());
    }

    @Test
    void theRateLimitedModelIsAModelScoped429WhoseRetryAfterSetsTheCooldown() {
        DemoReply reply = DemoReplies.answer(DemoBehaviour.RATE_LIMITED, DemoBehaviour.RATE_LIMITED_MODEL, true, 1);
        assertEquals(429, reply.status());
        assertEquals("120", reply.headers().get("Retry-After"));
        Failure failure = judge(reply, DemoBehaviour.RATE_LIMITED_MODEL).failure();
        assertEquals(Scope.MODEL, failure.scope());
        assertTrue(failure.rateLimited());
        assertFalse(failure.quota(), "a rate limit is never quota (F-7)");
        assertEquals(NOW.plusSeconds(120), failure.retryAt());
    }

    @Test
    void theFlakyRelayFailsEveryModelAsATransientModelScopedFailure() {
        Failure failure = judge(DemoReplies.answer(DemoBehaviour.FLAKY, "deepseek-v3", false, 1), "deepseek-v3")
                .failure();
        assertTrue(failure.isTransient());
        assertEquals(Scope.MODEL, failure.scope());
        assertEquals(502, failure.status());
    }

    @Test
    void theBudgetPoolEnvelopeIsQuotaForTheAccountAndNamesTheBudgetPoolReminder() {
        DemoReply reply = DemoReplies.answer(DemoBehaviour.BUDGET_POOL, "gpt-4o-mini", false, 1);
        assertTrue(reply.body().contains("\"type\":\"bad_response_status_code\""), "the seed's envelope");
        Failure failure = judge(reply, "gpt-4o-mini").failure();
        assertTrue(failure.quota(), "F-5: 'quota has been exhausted' on any status");
        assertEquals(Scope.ACCOUNT, failure.scope());
        assertEquals(Set.of(Reminders.BUDGET_POOL), Reminders.of(failure.responseBody(), null));
        assertEquals(Set.of(Reminders.BUDGET_POOL), Reminders.of(null, failure.message()));
    }
}
