package dev.detour.core.cooldown;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelMapping;
import dev.detour.core.account.ModelMappings;
import dev.detour.core.account.Platform;
import dev.detour.core.account.RecoveryRule;
import dev.detour.core.failure.AttemptFacts;
import dev.detour.core.failure.Failure;
import dev.detour.core.failure.FailureClassifier;
import dev.detour.core.failure.TransportError;
import dev.detour.core.failure.TransportErrorType;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Test data for the cooldown rules: the seed's primary account and real classified failures. */
final class AccountMother {
    static final Instant T0 = Instant.parse("2026-09-02T10:00:00Z");
    static final ModelMappings SOL_AND_GLM = ModelMappings.of(List.of(
            new ModelMapping("gpt-5.6-sol", "upstream-sol"), new ModelMapping("glm-5.3", "upstream-glm")));
    /** cooldown on at the default 10 s, threshold 3 to keep streak tests short. */
    static final FailurePolicy COOLDOWN_ON = new FailurePolicy(2, 200, true, 10, 3, true, true, 1800);
    static final FailurePolicy COOLDOWN_OFF = new FailurePolicy(2, 200, false, 10, 3, true, true, 1800);

    private AccountMother() {
    }

    static Account primary() {
        return account(SOL_AND_GLM, COOLDOWN_ON);
    }

    static Account account(ModelMappings mappings, FailurePolicy policy) {
        return new Account(7, "primary", 1, Platform.OPENAI_COMPATIBLE, "https://relay.example", mappings,
                Platform.OPENAI_COMPATIBLE.defaultFamilies(), 0, 10, true, false, AccountStatus.OK, null, 0, policy,
                RecoveryRule.OFF, AccountFailureState.CLEAN, 0, 0, null);
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
