package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.failure.AttemptFacts;
import dev.detour.core.failure.TransportError;
import dev.detour.core.failure.TransportErrorType;
import dev.detour.core.secret.SecretMask;
import dev.detour.gateway.wire.AnswerFacts;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** An attempt's answer is judged by the loop: the verdict depends on the facts and the {@code now} given, nothing else. */
class UpstreamAnswerTest {
    private static final Instant RECEIVED = Instant.parse("2026-12-02T10:00:00Z");
    private static final String BUSY = "{\"error\":{\"message\":\"slow down\",\"type\":\"rate_limit_error\"}}";

    private static UpstreamAnswer rateLimited(AtomicInteger letGo) {
        AttemptFacts facts = AttemptFacts.response(429, Map.of("retry-after", "Wed, 02 Dec 2026 10:01:00 GMT"), BUSY)
                .forModel("glm-5.3");
        return UpstreamAnswer.toJudge(facts, true, verdict -> AttemptResult.clientError(429, List.of(), new byte[0]),
                letGo::incrementAndGet);
    }

    @Test
    void theSameFactsAndTheSameNowGiveTheSameVerdict() {
        AtomicInteger letGo = new AtomicInteger();

        AttemptResult first = rateLimited(letGo).judged(RECEIVED);
        AttemptResult second = rateLimited(letGo).judged(RECEIVED);

        assertEquals(AttemptResult.Kind.FAILURE, first.kind());
        assertEquals(first.failure(), second.failure());
        assertEquals(2, letGo.get()); // a failed answer lets go of what it holds (a held stream is aborted)
    }

    @Test
    void aResetHintCountsFromTheNowTheLoopReadWhenTheAnswerCameIn() {
        AttemptResult atOnce = rateLimited(new AtomicInteger()).judged(RECEIVED);
        AttemptResult afterALongRead = rateLimited(new AtomicInteger()).judged(RECEIVED.plusSeconds(45));

        assertEquals(Instant.parse("2026-12-02T10:01:00Z"), atOnce.failure().retryAt());
        assertEquals(Duration.ofSeconds(60), atOnce.failure().retryAfter());
        assertEquals(Duration.ofSeconds(15), afterALongRead.failure().retryAfter());
    }

    @Test
    void aTransportFailureKeepsWhetherTheRequestWasDispatched() {
        TransportError timeout = new TransportError(TransportErrorType.READ_TIMEOUT, "read timed out");

        AttemptResult dispatched = UpstreamAnswer.transport(timeout, "glm-5.3", SecretMask.SHAPES, true).judged(RECEIVED);
        AttemptResult refused = UpstreamAnswer.transport(new TransportError(TransportErrorType.CONNECT_REFUSED,
                "connection refused"), "glm-5.3", SecretMask.SHAPES, false).judged(RECEIVED);

        assertEquals(AttemptResult.Kind.FAILURE, dispatched.kind());
        assertTrue(dispatched.dispatched());
        assertFalse(refused.dispatched());
        assertEquals(dispatched.failure(), UpstreamAnswer.transport(timeout, "glm-5.3", SecretMask.SHAPES, true)
                .judged(RECEIVED).failure());
    }

    @Test
    void aClientErrorIsHandedOnAsTheAttemptBuiltItAndHoldsNothingBack() {
        AtomicInteger letGo = new AtomicInteger();
        AttemptFacts facts = AttemptFacts.response(400, Map.of(),
                "{\"error\":{\"message\":\"messages is required\",\"type\":\"invalid_request_error\"}}");
        AttemptResult built = AttemptResult.clientError(400, List.of(), "masked".getBytes(StandardCharsets.UTF_8));

        AttemptResult result = UpstreamAnswer.toJudge(facts, true, verdict -> built, letGo::incrementAndGet)
                .judged(RECEIVED);

        assertSame(built, result);
        assertEquals(0, letGo.get());
    }

    @Test
    void aSuccessKnownFromTheBodysOneReadNeedsNoVerdict() {
        AttemptResult ok = AttemptResult.buffered(200, List.of(), new byte[0], AnswerFacts.NONE);

        assertSame(ok, UpstreamAnswer.known(ok).judged(RECEIVED));
        assertSame(ok, UpstreamAnswer.known(ok).judged(RECEIVED.plusSeconds(3600)));
    }
}
