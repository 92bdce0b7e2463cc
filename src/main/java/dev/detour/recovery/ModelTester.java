package dev.detour.recovery;

import dev.detour.core.ValidationException;
import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.ModelKey;
import dev.detour.core.failure.AttemptFacts;
import dev.detour.core.failure.Failure;
import dev.detour.core.failure.FailureClassifier;
import dev.detour.core.failure.TransportError;
import dev.detour.core.failure.TransportErrorType;
import dev.detour.core.failure.Verdict;
import dev.detour.gateway.port.EventSink;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.gateway.port.PoolStore;
import dev.detour.gateway.wire.RequestIds;
import dev.detour.gateway.wire.RequestSecrets;
import dev.detour.gateway.port.UpstreamClient;
import dev.detour.gateway.port.UpstreamRequest;
import dev.detour.gateway.port.UpstreamResponse;
import dev.detour.gateway.port.UpstreamTransportException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * R-4 model connectivity test: one minimal real request to one account for one model, judged by the
 * same classifier as live traffic (kinds model_test / model_test_status) and recorded like it.
 * Success clears (C-5, pulling error/warning back to ok) and then runs explicit-test recovery —
 * account columns only, never sibling model rows. Works on paused accounts when a person asks.
 */
public final class ModelTester {
    /**
     * Who asked: a person about one account (may revive a paused account), a person's batch over many
     * (W-3: never revives a paused account — that stays one deliberate click) or the healthcheck (never does).
     */
    public enum Mode { EXPLICIT, BATCH, HEALTHCHECK }

    private static final int MAX_BODY = 256 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();
    private final UpstreamClient upstream;
    private final PoolSnapshot snapshot;
    private final PoolStore poolStore;
    private final RecoveryStore recoveryStore;
    private final EventSink events;
    private final Clock clock;

    public ModelTester(UpstreamClient upstream, PoolSnapshot snapshot, PoolStore poolStore,
            RecoveryStore recoveryStore, EventSink events, Clock clock) {
        this.upstream = upstream;
        this.snapshot = snapshot;
        this.poolStore = poolStore;
        this.recoveryStore = recoveryStore;
        this.events = events;
        this.clock = clock;
    }

    /** {@code clientModel} is a request-side name the account serves (null/blank: its first mapping). */
    public ModelTestResult test(Account account, String clientModel, Mode mode) {
        String model = clientModel == null || clientModel.isBlank() ? defaultModel(account) : clientModel.trim();
        String upstreamModel = account.mappings().upstreamNameFor(model).orElseThrow(() -> new ValidationException(
                "validation.model", "model", "account " + account.name() + " does not serve model " + model));
        String modelKey = ModelKey.of(upstreamModel);
        EndpointFamily family = ModelTestRequest.familyFor(account);
        String requestId = RequestIds.next(clock);
        UpstreamRequest request = ModelTestRequest.build(account, family, upstreamModel,
                snapshot.apiKey(account.id()), requestId, clock.instant());
        long started = System.nanoTime();
        Answer answer = send(request, started);
        long latencyMs = (System.nanoTime() - started) / 1_000_000;
        Instant now = clock.instant();
        // the test's message and upstream body (shown at once, stored as the last failure) are masked
        Verdict verdict = FailureClassifier.classify(answer.facts().forModel(modelKey).asModelTest()
                .maskingWith(RequestSecrets.maskFor(request)), now);
        record(account, modelKey, verdict, mode, now);
        ModelTestResult result = result(verdict, answer, latencyMs, family, model, modelKey);
        events.emit(ModelTestEvents.of(requestId, account, result, mode, now));
        return result;
    }

    private void record(Account account, String modelKey, Verdict verdict, Mode mode, Instant now) {
        if (verdict.isSuccess()) {
            snapshot.apply(poolStore.recordSuccess(account.id(), modelKey, true, now));
            recoveryStore.testRecovery(account.id(), mode == Mode.EXPLICIT, now).ifPresent(snapshot::apply);
        } else if (verdict.isFailure()) {
            snapshot.apply(poolStore.recordFailure(account.id(), modelKey, verdict.failure(), now));
        }
        // a client error (None class, P-3) changes nothing, as in live traffic
    }

    private static ModelTestResult result(Verdict verdict, Answer answer, long latencyMs, EndpointFamily family,
            String model, String modelKey) {
        if (verdict.isSuccess()) {
            return new ModelTestResult(true, latencyMs, answer.status(), null, null, family.wire(), model, modelKey,
                    null, answer.firstByteMs(), answer.servedModel(), null);
        }
        Failure failure = verdict.failure();
        String message = failure == null ? "upstream returned " + answer.status() : failure.message();
        String kind = failure == null ? null : failure.kind().wire();
        String body = failure == null ? null : ModelTestResult.truncate(failure.responseBody());
        String failureClass = failure == null ? null : failure.failureClass().name().toLowerCase(Locale.ROOT);
        return new ModelTestResult(false, latencyMs, answer.status(), ModelTestResult.truncate(message), body,
                family.wire(), model, modelKey, kind, answer.firstByteMs(), answer.servedModel(), failureClass);
    }

    private static String defaultModel(Account account) {
        return account.mappings().entries().stream().filter(m -> !m.isPattern()).map(m -> m.from()).findFirst()
                .orElseThrow(() -> new ValidationException("validation.model", "model",
                        "name the model to test: this account has no fixed model mapping"));
    }

    /** {@code firstByteMs}: until the upstream's status line arrived (null without one); {@code servedModel}: its word. */
    private record Answer(int status, AttemptFacts facts, Long firstByteMs, String servedModel) {
        Answer(int status, AttemptFacts facts) {
            this(status, facts, null, null);
        }
    }

    private Answer send(UpstreamRequest request, long startedNanos) {
        try (UpstreamResponse response = upstream.send(request)) {
            long firstByteMs = (System.nanoTime() - startedNanos) / 1_000_000;
            byte[] body;
            try {
                body = response.body().readNBytes(MAX_BODY);
            } catch (IOException e) {
                response.abort();
                return transport(e);
            }
            String text = new String(body, StandardCharsets.UTF_8);
            Map<String, String> headers = new HashMap<>();
            for (Header h : response.headers()) {
                headers.putIfAbsent(h.name().toLowerCase(Locale.ROOT), h.value());
            }
            String type = response.header("content-type");
            boolean sse = type != null && type.toLowerCase(Locale.ROOT).startsWith("text/event-stream");
            AttemptFacts facts = sse ? AttemptFacts.streamed(response.status(), headers, text)
                    : AttemptFacts.response(response.status(), headers, text);
            return new Answer(response.status(), facts, firstByteMs, sse ? null : servedModel(text));
        } catch (UpstreamTransportException e) {
            return new Answer(0, AttemptFacts.transport(e.error()));
        }
    }

    /** W-3: the model the upstream says it served ({@code "model"} of a chat, messages or responses answer). */
    static String servedModel(String body) {
        try {
            JsonNode model = JSON.readTree(body).path("model");
            return model.isTextual() ? model.asText() : null;
        } catch (IOException | RuntimeException e) {
            return null; // not JSON: the upstream did not say
        }
    }

    private static Answer transport(IOException e) {
        TransportError error = e instanceof UpstreamTransportException u ? u.error()
                : new TransportError(TransportErrorType.OTHER, String.valueOf(e.getMessage()));
        return new Answer(0, AttemptFacts.transport(error));
    }
}
