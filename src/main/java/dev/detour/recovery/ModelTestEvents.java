package dev.detour.recovery;

import dev.detour.core.account.Account;
import dev.detour.core.usage.TokenUsage;
import dev.detour.gateway.port.RequestEvent;
import dev.detour.gateway.port.RequestEvent.AttemptRecord;
import dev.detour.gateway.port.RequestEvent.Outcome;
import java.time.Instant;
import java.util.List;

/** Each model test leaves exactly one request event (seed: "one request event in the stats"). */
final class ModelTestEvents {
    static final String REASON_EXPLICIT = "model_test";
    static final String REASON_HEALTHCHECK = "healthcheck_probe";

    private ModelTestEvents() {
    }

    static RequestEvent of(String requestId, Account account, ModelTestResult result, ModelTester.Mode mode,
            Instant at) {
        Outcome outcome = result.ok() ? Outcome.SUCCESS : Outcome.FAILURE;
        AttemptRecord attempt = new AttemptRecord(account.id(), result.status() == 0 ? null : result.status(),
                result.failureKind(), null, result.latencyMs(), "final");
        return new RequestEvent(requestId, null, result.endpoint(), result.model(), result.modelKey(), false,
                account.id(), account.groupId(), outcome, result.status(), result.ok() ? null : "model_test_failed",
                mode == ModelTester.Mode.HEALTHCHECK ? REASON_HEALTHCHECK : REASON_EXPLICIT, List.of(attempt), List.of(),
                TokenUsage.NONE, 0, null, (int) Math.min(Integer.MAX_VALUE, result.latencyMs()), null, at,
                result.endpoint()); // a model test asks the account in the protocol it tests
    }
}
