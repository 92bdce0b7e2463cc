package dev.detour.core.cooldown;

import dev.detour.core.account.Account;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelMapping;
import dev.detour.core.account.ModelMappings;
import dev.detour.core.failure.AttemptFacts;
import dev.detour.core.failure.Failure;
import dev.detour.core.failure.FailureClassifier;
import dev.detour.core.failure.TransportError;
import dev.detour.core.failure.TransportErrorType;
import dev.detour.testkit.AccountMother;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Test data for the cooldown rules: the seed's primary account and real classified failures. */
final class FailureMother {
    static final Instant T0 = Instant.parse("2026-09-02T10:00:00Z");
    static final ModelMappings SOL_AND_GLM = ModelMappings.of(List.of(
            new ModelMapping("gpt-5.6-sol", "upstream-sol"), new ModelMapping("glm-5.3", "upstream-glm")));
    /** cooldown on at the default 10 s, threshold 3 to keep streak tests short. */
    static final FailurePolicy COOLDOWN_ON = new FailurePolicy(2, 200, true, 10, 3, true, true, 1800);
    static final FailurePolicy COOLDOWN_OFF = new FailurePolicy(2, 200, false, 10, 3, true, true, 1800);

    private FailureMother() {
    }

    static Account primary() {
        return account(SOL_AND_GLM, COOLDOWN_ON);
    }

    /** The seed's primary account (id 7, weight 10) with these mappings and this failure policy. */
    static Account account(ModelMappings mappings, FailurePolicy policy) {
        return AccountMother.account(7).name("primary").maps(mappings).weight(10).failurePolicy(policy).build();
    }

    static Failure status(int status, String modelKey, Instant now) {
        return status(status, Map.of(), "", modelKey, now);
    }

    static Failure status(int status, Map<String, String> headers, String body, String modelKey, Instant now) {
        return FailureClassifier.classify(AttemptFacts.response(status, headers, body).forModel(modelKey), now)
                .failure();
    }

    /** A 200 whose body is an error envelope with this message (semantic_response_transient). */
    static Failure semantic(String message, String modelKey, Instant now) {
        return status(200, Map.of(), "{\"error\":{\"message\":\"" + message + "\"}}", modelKey, now);
    }

    static Failure quota(String modelKey, Instant now) {
        return status(200, Map.of(), "{\"error\":{\"code\":\"insufficient_quota\",\"message\":\"quota exhausted\"}}",
                modelKey, now);
    }

    static Failure transport(String modelKey, Instant now) {
        return FailureClassifier.classify(AttemptFacts.transport(
                new TransportError(TransportErrorType.CONNECT_REFUSED, "connection refused")).forModel(modelKey), now)
                .failure();
    }
}
