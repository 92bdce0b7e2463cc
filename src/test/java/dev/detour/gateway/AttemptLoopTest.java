package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.adapter.proxy.JsonPeeker;
import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelState;
import dev.detour.core.failure.TransportErrorType;
import dev.detour.core.keys.KeyPolicy;
import dev.detour.core.selection.SeededRandom;
import dev.detour.core.selection.SelectionPipeline;
import dev.detour.gateway.admission.SmartKeyFacts;
import dev.detour.gateway.live.DatabaseHealth;
import dev.detour.gateway.live.Leases;
import dev.detour.gateway.live.LoadDistribution;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.gateway.live.StateRecorder;
import dev.detour.gateway.live.StateWrites;
import dev.detour.gateway.live.WaitQueue;
import dev.detour.gateway.port.ClientCall;
import dev.detour.gateway.port.EventSink;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.KeyEntry;
import dev.detour.gateway.port.RequestEvent;
import dev.detour.gateway.port.ResponseSink;
import dev.detour.gateway.port.StateJournal;
import dev.detour.testkit.AccountMother;
import dev.detour.testkit.InMemoryLoadStore;
import dev.detour.testkit.InMemoryPoolStore;
import dev.detour.testkit.InMemoryUpstream;
import dev.detour.testkit.InMemoryUpstream.Step;
import dev.detour.testkit.MutableClock;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The attempt loop (P-3) driven end to end through the real Forwarder, Router, StateRecorder and
 * LoadDistribution, with the upstream and the stores in memory: no database, no sockets. Each test is one
 * client request and checks its answer, its one event and what the pool remembers.
 */
class AttemptLoopTest {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final String A = "https://a.example";
    private static final String B = "https://b.example";
    private static final String OK = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
            + "\"message\":{\"role\":\"assistant\",\"content\":\"hi\"},\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1,\"total_tokens\":4}}";
    private static final String BUSY = "{\"error\":{\"message\":\"server busy\",\"type\":\"server_error\"}}";
    private static final String INVALID = "{\"error\":{\"message\":\"messages is required\","
            + "\"type\":\"invalid_request_error\"}}";
    /** No same-account retry, a 10 s model cooldown. */
    private static final FailurePolicy NO_RETRY = new FailurePolicy(0, 0, true, 10, 3, true, true, 1800);
    private static final FailurePolicy ONE_RETRY = new FailurePolicy(1, 250, true, 10, 3, true, true, 1800);
    private static final KeyEntry KEY = new KeyEntry(7, "loop", true, null, KeyPolicy.UNRESTRICTED);

    private final MutableClock clock = new MutableClock(T0);
    private final InMemoryUpstream upstream = new InMemoryUpstream();
    private final List<Long> pauses = new ArrayList<>();
    private final List<RequestEvent> events = new ArrayList<>();
    private final Leases leases = new Leases();
    private InMemoryPoolStore store;
    private DatabaseHealth health;
    private StateWrites writes;
    private Forwarder forwarder;

    private void pool(Account... accounts) {
        store = new InMemoryPoolStore();
        for (Account account : accounts) {
            store.account(account, "sk-" + account.id());
        }
        PoolSnapshot snapshot = new PoolSnapshot(store);
        health = new DatabaseHealth(clock);
        writes = new StateWrites(health, snapshot, StateJournal.NONE);
        LoadDistribution load = new LoadDistribution(snapshot, new InMemoryLoadStore());
        load.deferWritesTo(writes);
        Router router = new Router(new SelectionPipeline(), new SeededRandom(1), SmartKeyFacts.none(), load);
        EventSink sink = new EventSink() {
            @Override
            public void emit(RequestEvent event) {
                events.add(event);
            }

            @Override
            public void touchAccount(long accountId, boolean success, Instant at, String modelKey) {
            }
        };
        forwarder = new Forwarder(snapshot, router, upstream, new StateRecorder(store, snapshot, writes), leases,
                sink, snapshot::apiKey, pauses::add, clock, SmartKeyFacts.none(), load, WaitQueue.none(leases, clock));
    }

    private static Account account(long id, String baseUrl, int priority, FailurePolicy policy) {
        return AccountMother.account(id).baseUrl(baseUrl).maps("gpt", "up-gpt").priority(priority)
                .failurePolicy(policy).build();
    }

    @BeforeEach
    void twoAccounts() {
        pool(account(1, A, 0, NO_RETRY), account(2, B, 1, NO_RETRY));
    }

    @AfterEach
    void stop() {
        writes.close(0);
    }

    @Test
    void aFailedAccountIsRecordedAndTheNextOneAnswers() {
        upstream.script(A, Step.answer(503, BUSY)).script(B, Step.ok(OK));

        Answer answer = send("{\"model\":\"gpt\",\"messages\":[]}");

        assertEquals(200, answer.status);
        assertEquals(OK, answer.body());
        RequestEvent event = onlyEvent();
        assertEquals(List.of("1:503:switch", "2:200:final"), attempts(event));
        assertEquals("switched_after_failure", event.reasonCode());
        assertEquals(2L, event.accountId());
        drained();
        ModelState cooled = store.row(1, "up-gpt");
        assertNotNull(cooled, "a's failure reached the store through the pure transition");
        assertEquals(T0.plusSeconds(10), cooled.cooldownUntil());
        assertNull(store.row(2, "up-gpt"), "b's success had nothing to clear");
    }

    @Test
    void aTransientFailureIsRetriedOnTheSameAccountAfterItsInterval() {
        pool(account(1, A, 0, ONE_RETRY), account(2, B, 1, NO_RETRY));
        upstream.script(A, Step.answer(503, BUSY), Step.ok(OK)).script(B, Step.ok(OK));

        Answer answer = send("{\"model\":\"gpt\",\"messages\":[]}");

        assertEquals(200, answer.status);
        RequestEvent event = onlyEvent();
        assertEquals(List.of("1:503:retry_same", "1:200:final"), attempts(event));
        assertEquals("retry_same_account", event.reasonCode());
        assertEquals(List.of(250L), pauses, "one pause of retry_interval_ms between the two attempts");
        assertEquals(0, upstream.sentTo(B));
        drained();
        assertNull(store.row(1, "up-gpt"), "a retry that succeeded records no failure");
    }

    @Test
    void aClientErrorGoesBackAsItIsWithoutRetryOrSwitch() {
        pool(account(1, A, 0, ONE_RETRY), account(2, B, 1, NO_RETRY));
        upstream.script(A, Step.answer(400, INVALID)).script(B, Step.ok(OK));

        Answer answer = send("{\"model\":\"gpt\"}");

        assertEquals(400, answer.status);
        assertEquals(INVALID, answer.body());
        RequestEvent event = onlyEvent();
        assertEquals(List.of("1:400:final"), attempts(event));
        assertEquals("returned_client_error", event.reasonCode());
        assertEquals(0, upstream.sentTo(B));
        assertTrue(pauses.isEmpty());
        drained();
        assertNull(store.row(1, "up-gpt"), "the client's mistake is no failure of the account");
    }

    @Test
    void aSideEffectingRequestThatNeverReachedTheUpstreamMovesOn() {
        upstream.script(A, Step.fails(TransportErrorType.CONNECT_REFUSED)).script(B, Step.ok(OK));

        Answer answer = send("{\"model\":\"gpt\",\"store\":true}");

        assertEquals(200, answer.status);
        RequestEvent event = onlyEvent();
        assertEquals(List.of("1:null:switch", "2:200:final"), attempts(event));
        assertEquals("switched_after_failure", event.reasonCode());
    }

    @Test
    void aSideEffectingRequestRefusedAtConnectIsRetriedOnTheSameAccount() {
        pool(account(1, A, 0, ONE_RETRY), account(2, B, 1, NO_RETRY));
        upstream.script(A, Step.fails(TransportErrorType.CONNECT_REFUSED), Step.ok(OK)).script(B, Step.ok(OK));

        Answer answer = send("{\"model\":\"gpt\",\"background\":true}");

        assertEquals(200, answer.status);
        RequestEvent event = onlyEvent();
        assertEquals(List.of("1:null:retry_same", "1:200:final"), attempts(event));
        assertEquals("retry_same_account", event.reasonCode());
        assertEquals(0, upstream.sentTo(B));
    }

    @Test
    void aSideEffectingRequestOnceDispatchedIsNeverSentToASecondAccount() {
        upstream.script(A, Step.answer(503, BUSY)).script(B, Step.ok(OK));

        Answer answer = send("{\"model\":\"gpt\",\"store\":true}");

        assertEquals(503, answer.status, "every attempt was a 5xx (P-8')");
        RequestEvent event = onlyEvent();
        assertEquals(List.of("1:503:switch"), attempts(event));
        assertEquals("retry_stopped_after_commit", event.reasonCode());
        assertEquals(0, upstream.sentTo(B));
    }

    @Test
    void everyRouteFullIsBusyNotBrokenAndRecordsNothing() {
        pool(AccountMother.account(1).baseUrl(A).maps("gpt", "up-gpt").maxInFlight(1).failurePolicy(NO_RETRY).build(),
                AccountMother.account(2).baseUrl(B).maps("gpt", "up-gpt").maxInFlight(1).failurePolicy(NO_RETRY)
                        .priority(1).build());
        assertTrue(leases.tryAcquire(1, 1) && leases.tryAcquire(2, 1), "both accounts are busy elsewhere");

        Answer answer = send("{\"model\":\"gpt\"}");

        assertEquals(503, answer.status);
        assertTrue(answer.body().contains("at_capacity"), answer.body());
        assertTrue(answer.headers.contains(new Header("retry-after", "1")), answer.headers.toString());
        RequestEvent event = onlyEvent();
        assertEquals(List.of(), attempts(event));
        assertEquals(List.of("capacity_overflow_to_next", "capacity_overflow_to_next"),
                event.rejections().stream().map(RequestEvent.RejectionRecord::reason).toList());
        assertTrue(upstream.received().isEmpty());
        drained();
        assertNull(store.row(1, "up-gpt"));
        assertNull(store.row(2, "up-gpt"));
    }

    @Test
    void aServedRequestNamesOnlyTheRoutesThatCouldHaveServedItAndARefusalNamesEveryAccount() {
        pool(AccountMother.account(1).baseUrl(A).maps("gpt", "up-gpt").maxInFlight(1).failurePolicy(NO_RETRY).build(),
                AccountMother.account(2).baseUrl(B).maps("gpt", "up-gpt").priority(1).failurePolicy(NO_RETRY).build(),
                AccountMother.account(3).baseUrl(B).maps("claude", "up-claude").failurePolicy(NO_RETRY).build());
        assertTrue(leases.tryAcquire(1, 1), "account 1 is busy elsewhere");
        upstream.script(B, Step.ok(OK));

        assertEquals(200, send("{\"model\":\"gpt\",\"messages\":[]}").status);
        assertEquals(404, send("{\"model\":\"gemini\",\"messages\":[]}").status);

        assertEquals(2, events.size(), events.toString());
        // account 3 serves another model: under every served request of a large pool that was most of the event
        assertEquals(List.of("1:capacity_overflow_to_next"), rejections(events.get(0)));
        assertEquals(List.of("1:rejected_model_unmapped", "2:rejected_model_unmapped", "3:rejected_model_unmapped"),
                rejections(events.get(1)).stream().sorted().toList(), "a refusal says why nothing could serve it");
    }

    private static List<String> rejections(RequestEvent event) {
        return event.rejections().stream().map(r -> r.accountId() + ":" + r.reason()).toList();
    }

    private void drained() {
        writes.awaitDrained(health, Duration.ofSeconds(30));
        assertEquals(0, writes.pending(), "every state change reached the in-memory store");
    }

    private RequestEvent onlyEvent() {
        assertEquals(1, events.size(), events.toString());
        return events.get(0);
    }

    private static List<String> attempts(RequestEvent event) {
        return event.attempts().stream().map(a -> a.accountId() + ":" + a.status() + ":" + a.action()).toList();
    }

    private Answer send(String json) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        ClientCall call = new ClientCall("req-1", EndpointFamily.CHAT_COMPLETIONS, "POST", "/v1/chat/completions",
                List.of(new Header("content-type", "application/json")), body, JsonPeeker.peek(body), KEY,
                "127.0.0.1", clock.instant(), System.nanoTime());
        Answer answer = new Answer();
        forwarder.forward(call, answer);
        return answer;
    }

    /** The client's side, in memory. */
    private static final class Answer implements ResponseSink {
        int status;
        List<Header> headers = List.of();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean begun;

        @Override
        public void begin(int status, List<Header> headers) {
            this.status = status;
            this.headers = headers;
            this.begun = true;
        }

        @Override
        public void write(byte[] b, int offset, int length) {
            bytes.write(b, offset, length);
        }

        @Override
        public void flush() {
        }

        @Override
        public void abort() {
        }

        @Override
        public boolean committed() {
            return begun;
        }

        String body() {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }
}
