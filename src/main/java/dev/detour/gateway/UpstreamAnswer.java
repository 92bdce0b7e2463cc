package dev.detour.gateway;

import dev.detour.core.failure.AttemptFacts;
import dev.detour.core.failure.FailureClassifier;
import dev.detour.core.failure.TransportError;
import dev.detour.core.failure.Verdict;
import dev.detour.core.secret.SecretMask;
import java.time.Instant;
import java.util.function.Function;

/**
 * What one upstream attempt saw, not yet judged: the facts the classifier needs (status, headers, the
 * body or first frame, the transport error) and what to hand on once the verdict is in. The attempt
 * loop judges it with the one {@code now} it reads when the answer is in, so a cooldown window (C-2) and
 * a reset hint's remaining time (C-4) count from when the answer was received, never from when the
 * request was sent (a 60 s read timeout must not start a 30 s cooldown already half over).
 */
final class UpstreamAnswer {
    private final AttemptFacts facts;
    private final boolean dispatched;
    private final Function<Verdict, AttemptResult> notFailed;
    private final Runnable onFailure;

    private UpstreamAnswer(AttemptFacts facts, boolean dispatched, Function<Verdict, AttemptResult> notFailed,
            Runnable onFailure) {
        this.facts = facts;
        this.dispatched = dispatched;
        this.notFailed = notFailed;
        this.onFailure = onFailure;
    }

    /** F-4: a success already known from one read of the body: nothing is left to judge. */
    static UpstreamAnswer known(AttemptResult result) {
        return new UpstreamAnswer(null, result.dispatched(), verdict -> result, () -> { });
    }

    /**
     * An answer to classify. {@code notFailed} builds the result of a success or client error from the
     * verdict; {@code onFailure} lets go of what the answer holds (a held stream is aborted).
     */
    static UpstreamAnswer toJudge(AttemptFacts facts, boolean dispatched, Function<Verdict, AttemptResult> notFailed,
            Runnable onFailure) {
        return new UpstreamAnswer(facts, dispatched, notFailed, onFailure);
    }

    /** No answer: the connection failed or the body could not be read. */
    static UpstreamAnswer transport(TransportError error, String modelKey, SecretMask mask, boolean dispatched) {
        AttemptFacts facts = AttemptFacts.transport(error).forModel(modelKey).maskingWith(mask);
        return new UpstreamAnswer(facts, dispatched, verdict -> AttemptResult.failed(verdict.failure(), dispatched),
                () -> { });
    }

    /** The verdict at {@code now}: a pure function of the facts and {@code now} (P-5, F-1). */
    AttemptResult judged(Instant now) {
        if (facts == null) {
            return notFailed.apply(null);
        }
        Verdict verdict = FailureClassifier.classify(facts, now);
        if (verdict.isFailure()) {
            onFailure.run();
            return AttemptResult.failed(verdict.failure(), dispatched);
        }
        return notFailed.apply(verdict);
    }
}
