package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.config.DetourConfig;
import dev.detour.fake.Bodies;
import dev.detour.testkit.DatabaseFaults;
import dev.detour.testkit.Fault;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.RawHttpClient;
import dev.detour.testkit.Received;
import dev.detour.fake.Reply;
import dev.detour.testkit.Rows;
import dev.detour.testkit.TcpFaultProxy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * D-6: the fault matrix. Two accounts serve model {@code m}: {@code a} (priority 0, no same-account retry,
 * 30 s cooldown, a second model {@code m2} so that a model-scoped failure does not escalate, C-3) and
 * {@code b} (priority 1), each behind its own {@link TcpFaultProxy} in front of its own fake upstream. Each
 * row starts a fresh App (no pooled connection, no state from the row before), applies one fault — on the
 * wire, in an upstream's answer, in the client's behaviour or in its input — sends one client request and
 * asserts, the same way for every row:
 * <ul>
 * <li>what the client got: served (by which account, the whole answer) whenever an account could serve;
 *     otherwise the visible failure or the stable error code of its case;</li>
 * <li>each account's state afterwards (F-1, F-3, C-2, F-5): untouched, account cooled, model cooled, or
 *     status error, with the failure kind;</li>
 * <li>in-flight leases back to 0;</li>
 * <li>exactly one request event per client request, counted in MariaDB after the App closed (flushed);</li>
 * <li>and, the wire healthy again and the clock past the cooldown, that a serves again with its traces cleared.</li>
 * </ul>
 * Stalls end by Detour's own 1 s read gap (config), never by a sleep in the test.
 */
class FaultMatrixIT {
    private static final String MAPS_A = "[{\"from\":\"m\",\"to\":\"upstream-m\"},{\"from\":\"m2\",\"to\":\"upstream-m2\"}]";
    private static final String MAPS_B = "[{\"from\":\"m\",\"to\":\"upstream-m\"}]";
    private static final String POLICY_A = "\"priority\":0,\"failure_policy\":{\"retry_count\":0,"
            + "\"cooldown_enabled\":true,\"cooldown_seconds\":30}";
    private static final String POLICY_B = "\"priority\":1,\"failure_policy\":{\"retry_count\":0,"
            + "\"cooldown_enabled\":true,\"cooldown_seconds\":30}";
    private static final int COOLDOWN = 30;
    private static final Duration READ_GAP = Duration.ofSeconds(1);
    private static final String BUFFERED = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    private static final String STREAMED = "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\","
            + "\"content\":\"hi\"}]}";
    /** Answer bytes of a's stream, counted from the end of its headers, up to just past its text frame. */
    private static long midStream;

    @BeforeAll
    static void measureTheStream() throws IOException {
        try (FakeUpstream probe = FakeUpstream.start().handler(answers("a"))) {
            String raw = keepAliveStream(probe.port()); // the chunked framing Detour's pooled connections see
            int bodyStart = raw.indexOf("\r\n\r\n") + 4;
            int textFrameEnd = raw.indexOf("\n\n", raw.indexOf("from a")) + 2;
            assertTrue(bodyStart > 4 && textFrameEnd > bodyStart && raw.contains("[DONE]")
                    && raw.toLowerCase(java.util.Locale.ROOT).contains("transfer-encoding: chunked"), raw);
            midStream = textFrameEnd - bodyStart + 3; // inside the next chunk: the stop chunk and [DONE] never come
        }
    }

    static Stream<Row> rows() {
        return Stream.of(wireRows(), upstreamAnswerRows(), clientRows(), badInputRows(), databaseRows())
                .flatMap(s -> s);
    }

    /** The TCP fault proxy's faults on a's path, buffered and streaming. */
    static Stream<Row> wireRows() {
        return Stream.of(
                new Row("latency 300 ms per chunk, buffered", s -> s.proxyA.fault(Fault.latency(Duration.ofMillis(300))),
                        Scene::buffered, Client.SERVED_BY_A, State.UNTOUCHED),
                new Row("latency 300 ms per chunk, streaming", s -> s.proxyA.fault(Fault.latency(Duration.ofMillis(300))),
                        Scene::streamed, Client.SERVED_BY_A, State.UNTOUCHED),
                new Row("stall before headers, buffered", s -> s.proxyA.fault(Fault.stallBeforeHeaders()),
                        Scene::buffered, Client.SERVED_BY_B, State.accountCooled("transport")),
                new Row("stall before headers, streaming", s -> s.proxyA.fault(Fault.stallBeforeHeaders()),
                        Scene::streamed, Client.SERVED_BY_B, State.accountCooled("transport")),
                new Row("stall mid-body, buffered", s -> s.proxyA.fault(Fault.stallMidBody(20)),
                        Scene::buffered, Client.SERVED_BY_B, State.accountCooled("transport")),
                new Row("stall mid-stream after the first text", s -> s.proxyA.fault(Fault.stallMidBody(midStream)),
                        Scene::streamed, Client.STREAM_BROKEN, State.modelCooled("semantic_response_transient")),
                new Row("reset instead of the answer, buffered", s -> s.proxyA.fault(Fault.reset()),
                        Scene::buffered, Client.SERVED_BY_B, State.accountCooled("transport")),
                new Row("reset instead of the answer, streaming", s -> s.proxyA.fault(Fault.reset()),
                        Scene::streamed, Client.SERVED_BY_B, State.accountCooled("transport")),
                new Row("reset mid-body, buffered", s -> s.proxyA.fault(Fault.resetMidBody(20)),
                        Scene::buffered, Client.SERVED_BY_B, State.accountCooled("transport")),
                new Row("reset mid-stream after the first text", s -> s.proxyA.fault(Fault.resetMidBody(midStream)),
                        Scene::streamed, Client.STREAM_BROKEN, State.modelCooled("semantic_response_transient")),
                new Row("half-open from the accept, buffered", s -> s.proxyA.fault(Fault.halfOpen()),
                        Scene::buffered, Client.SERVED_BY_B, State.accountCooled("transport")),
                new Row("half-open from the accept, streaming", s -> s.proxyA.fault(Fault.halfOpen()),
                        Scene::streamed, Client.SERVED_BY_B, State.accountCooled("transport")),
                new Row("half-open mid-body, buffered", s -> s.proxyA.fault(Fault.halfOpenMidBody(20)),
                        Scene::buffered, Client.SERVED_BY_B, State.accountCooled("transport")),
                new Row("half-open mid-stream after the first text",
                        s -> s.proxyA.fault(Fault.halfOpenMidBody(midStream)),
                        Scene::streamed, Client.STREAM_BROKEN, State.modelCooled("semantic_response_transient")),
                new Row("slow drip 16 bytes per 20 ms, buffered",
                        s -> s.proxyA.fault(Fault.drip(16, Duration.ofMillis(20))),
                        Scene::buffered, Client.SERVED_BY_A, State.UNTOUCHED),
                new Row("slow drip 16 bytes per 20 ms, streaming",
                        s -> s.proxyA.fault(Fault.drip(16, Duration.ofMillis(20))),
                        Scene::streamed, Client.SERVED_BY_A, State.UNTOUCHED),
                new Row("truncated inside the status line, buffered", s -> s.proxyA.fault(Fault.truncateAfter(12)),
                        Scene::buffered, Client.SERVED_BY_B, State.accountCooled("transport")),
                new Row("truncated inside the headers, streaming", s -> s.proxyA.fault(Fault.truncateAfter(40)),
                        Scene::streamed, Client.SERVED_BY_B, State.accountCooled("transport")),
                new Row("truncated mid-body, buffered", s -> s.proxyA.fault(Fault.truncateMidBody(20)),
                        Scene::buffered, Client.SERVED_BY_B, State.accountCooled("transport")),
                new Row("truncated mid-stream after the first text", s -> s.proxyA.fault(Fault.truncateMidBody(midStream)),
                        Scene::streamed, Client.STREAM_BROKEN, State.modelCooled("semantic_response_transient")),
                new Row("connection refused, buffered", s -> s.proxyA.refuse(),
                        Scene::buffered, Client.SERVED_BY_B, State.accountCooled("transport")),
                new Row("connection refused, streaming", s -> s.proxyA.refuse(),
                        Scene::streamed, Client.SERVED_BY_B, State.accountCooled("transport")),
                new Row("every account refused: no account can serve", s -> {
                    s.proxyA.refuse();
                    s.proxyB.refuse();
                }, Scene::buffered, Client.NONE_CAN_SERVE, State.accountCooled("transport"),
                        State.accountCooled("transport")));
    }

    /** F-1, F-3, F-4, F-5 and P-4's upstream stall as the upstream answers them (healthy wire). */
    static Stream<Row> upstreamAnswerRows() {
        return Stream.of(
                new Row("upstream stall (N-4), the fake holds its answer", s -> s.upA.enqueue(Reply.stallBeforeHeaders()),
                        Scene::buffered, Client.SERVED_BY_B, State.accountCooled("transport")),
                new Row("429 with Retry-After", s -> s.upA.enqueue(Reply.openAiError(429, "rate limit", "rate_limited")
                        .header("Retry-After", "5")),
                        Scene::buffered, Client.SERVED_BY_B, State.modelCooled("upstream_status")),
                new Row("503 overloaded", s -> s.upA.enqueue(Reply.openAiError(503, "overloaded", "server_error")),
                        Scene::buffered, Client.SERVED_BY_B, State.modelCooled("upstream_status")),
                new Row("401 key rejected", s -> s.upA.enqueue(Reply.openAiError(401, "bad key", "invalid_api_key")),
                        Scene::buffered, Client.SERVED_BY_B, State.accountCooled("upstream_status")),
                new Row("402 quota exhausted", s -> s.upA.enqueue(Reply.openAiError(402, "quota exhausted",
                        "insufficient_quota")),
                        Scene::buffered, Client.SERVED_BY_B, State.ACCOUNT_ERROR),
                new Row("200 with an error envelope", s -> s.upA.enqueue(Reply.json(200,
                        "{\"error\":{\"message\":\"upstream broke\",\"code\":\"server_error\"}}")),
                        Scene::buffered, Client.SERVED_BY_B, State.modelCooled("semantic_response_transient")),
                new Row("200 then close with no body, streaming", s -> s.upA.enqueue(Reply.emptyBodyClose()),
                        Scene::streamed, Client.SERVED_BY_B, State.accountCooled("transport")),
                new Row("400 client error is returned as is", s -> s.upA.enqueue(Reply.openAiError(400, "bad field",
                        "invalid_request_error")),
                        Scene::buffered, Client.RETURNED_AS_IS, State.UNTOUCHED));
    }

    /** N-4: the client goes away while a's answer is held on the wire. */
    static Stream<Row> clientRows() {
        return Stream.of(
                new Row("client cancel while the answer stalls, buffered", s -> s.holdA(Fault.stallBeforeHeaders()),
                        s -> s.cancel(BUFFERED), Client.CANCELLED, State.UNTOUCHED),
                new Row("client cancel mid-stream", s -> s.holdA(Fault.stallMidBody(midStream)),
                        s -> s.cancel(STREAMED), Client.CANCELLED, State.UNTOUCHED));
        // N-4's shutdown with requests in flight is D-3's process-level IT (a real SIGTERM to the jar).
    }

    /** N-5: bad input gets a stable code, reaches no upstream and changes nothing. */
    static Stream<Row> badInputRows() {
        return Stream.of(
                new Row("malformed JSON", s -> { }, s -> s.post("/v1/chat/completions", "{\"model\":\"m\","
                        .getBytes(StandardCharsets.UTF_8)), Client.refused(400, "request.invalid_json"), State.UNTOUCHED),
                new Row("invalid UTF-8 inside a message", s -> { }, s -> s.post("/v1/chat/completions", invalidUtf8()),
                        Client.refused(400, "request.invalid_json"), State.UNTOUCHED),
                new Row("body over 32 MiB", s -> { }, Scene::tooLarge, Client.refused(413, "request.too_large"),
                        State.UNTOUCHED),
                new Row("unknown endpoint", s -> { }, s -> s.post("/v1/nope", BUFFERED.getBytes(StandardCharsets.UTF_8)),
                        Client.refused(404, "request.unknown_endpoint"), State.UNTOUCHED),
                new Row("invalid failure policy is refused and the stored one still applies", s -> {
                    JsonNode refused = s.gw.admin("PUT", "/accounts/" + s.idA,
                            "{\"failure_policy\":{\"cooldown_seconds\":0}}");
                    assertEquals("validation.route_credential_failure_policy",
                            refused.path("error").path("code").asText(), refused.toString());
                    s.upA.enqueue(Reply.openAiError(503, "overloaded", "server_error"));
                }, Scene::buffered, Client.SERVED_BY_B, State.modelCooled("upstream_status")));
        // N-5's corrupt stored config (a row Detour cannot decode) is D-4's: its rows belong here once merged.
    }

    /**
     * D-1's database faults on the real mariadbd of this class's own embedded MariaDB (never the shared one):
     * frozen with SIGSTOP or stopped while a request runs and a's wire fails, then thawed or started again
     * before the checks. The client is served (or sees its broken stream) while the database is away; the
     * failure cools its route at once and is in the database after it returns; every event arrives once.
     */
    static Stream<Row> databaseRows() {
        return Stream.of(
                new Row("database frozen, a healthy, buffered", s -> s.database.freeze(),
                        s -> s.databaseBackAfter(s.buffered()), Client.SERVED_BY_A, State.UNTOUCHED)
                        .on(Scene::onOwnDatabase),
                new Row("database frozen while a resets, buffered", s -> {
                    s.database.freeze();
                    s.proxyA.fault(Fault.reset());
                }, s -> s.databaseBackAfter(s.buffered()), Client.SERVED_BY_B, State.accountCooled("transport"))
                        .on(Scene::onOwnDatabase),
                new Row("database frozen while a's stream breaks after its first text", s -> {
                    s.database.freeze();
                    s.proxyA.fault(Fault.truncateMidBody(midStream));
                }, s -> s.databaseBackAfter(s.streamed()), Client.STREAM_BROKEN,
                        State.modelCooled("semantic_response_transient")).on(Scene::onOwnDatabase),
                new Row("database stopped while a resets, buffered", s -> {
                    s.database.stop();
                    s.proxyA.fault(Fault.reset());
                }, s -> s.databaseBackAfter(s.buffered()), Client.SERVED_BY_B, State.accountCooled("transport"))
                        .on(Scene::onOwnDatabase));
    }

    /** The database rows' own server, started once for the class (an install takes a while). */
    private static DatabaseFaults ownDatabase;

    private static synchronized DatabaseFaults ownDatabase() {
        if (ownDatabase == null) {
            ownDatabase = DatabaseFaults.startFresh("it-fault-matrix-db");
        }
        ownDatabase.emptySchema(); // each row's App migrates a fresh schema: counts start at zero
        return ownDatabase;
    }

    @AfterAll
    static void stopOwnDatabase() {
        if (ownDatabase != null) {
            ownDatabase.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void eachFaultLeavesTheRuledStateServesWhenAnAccountCanAndLogsEveryRequestOnce(Row row) throws Exception {
        try {
            play(row);
        } catch (AssertionError e) {
            throw new AssertionError(row.name() + ": " + e.getMessage(), e); // reports list rows by number only
        }
    }

    private static void play(Row row) throws Exception {
        try (Scene s = row.scene().get()) {
            row.arm().on(s);
            Answer answer = row.call().send(s);

            row.client().check(answer, s);
            row.a().check(s.gw.accountState(s.idA), "a");
            row.b().check(s.gw.accountState(s.idB), "b");
            Gateway.await(() -> s.gw.app.leases().total() == 0, "every in-flight lease returned");
            assertEquals(0, s.gw.accountState(s.idA).path("in_flight").asInt());
            assertEquals(0, s.gw.accountState(s.idB).path("in_flight").asInt());
            List<JsonNode> events = s.gw.events(s.requests);
            JsonNode event = answer.requestId() == null ? events.get(events.size() - 1)
                    : s.gw.event(answer.requestId()); // the event of the very answer the client got
            row.client().checkEvent(event, s);
            if (row.a() != State.ACCOUNT_ERROR) { // quota comes back by its recovery rule, not by time
                servedByAOnceTheWindowPassed(s);
            }

            s.gw.close(); // flushes the event queue: a late duplicate would be counted below
            assertEquals(s.requests, s.sql.applyAsLong("SELECT COUNT(*) FROM request_events"), "one event per request");
            assertEquals(s.requests, s.sql.applyAsLong("SELECT COUNT(DISTINCT request_id) FROM request_events"));
        }
    }

    /**
     * R-1 and C-5 after every fault: once the wire is healthy again and the cooldown window has passed (the
     * clock moved, nobody waited), a serves again without any action and its failure traces are cleared.
     */
    private static void servedByAOnceTheWindowPassed(Scene s) {
        s.proxyA.healthy().accept();
        s.proxyB.healthy().accept();
        s.gw.clock.advance(Duration.ofSeconds(COOLDOWN + 1));
        Answer again = s.buffered();
        assertEquals(200, again.status(), again.body());
        assertTrue(again.body().contains("from a"), "a serves again: " + again.body());
        State.UNTOUCHED.check(s.gw.accountState(s.idA), "a after its success");
        Gateway.await(() -> s.gw.app.leases().total() == 0, "every in-flight lease returned");
    }

    /** One named case: the fault, the client's request, what the client gets and each account's state after. */
    record Row(String name, Arm arm, Call call, Client client, State a, State b, Supplier<Scene> scene) {
        Row(String name, Arm arm, Call call, Client client, State a, State b) {
            this(name, arm, call, client, a, b, Scene::start);
        }

        Row(String name, Arm arm, Call call, Client client, State a) {
            this(name, arm, call, client, a, State.UNTOUCHED);
        }

        /** The same row in another world (e.g. an App on a database of its own). */
        Row on(Supplier<Scene> world) {
            return new Row(name, arm, call, client, a, b, world);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    @FunctionalInterface
    interface Arm {
        void on(Scene scene) throws Exception;
    }

    @FunctionalInterface
    interface Call {
        Answer send(Scene scene) throws Exception;
    }

    /** What the client saw: status, the body as far as it came, whether the body ended in an error. */
    record Answer(int status, String body, boolean aborted, String requestId) {
    }

    /** What the client must get, and the matching request event. */
    record Client(String what, int status, String code) {
        static final Client SERVED_BY_A = new Client("served by a", 200, null);
        static final Client SERVED_BY_B = new Client("served by b", 200, null);
        static final Client STREAM_BROKEN = new Client("stream broken visibly", 200, "stream.truncated");
        static final Client CANCELLED = new Client("cancelled", 0, null);
        static final Client RETURNED_AS_IS = new Client("returned as is", 400, null);
        static final Client NONE_CAN_SERVE = new Client("no account can serve", 503, "route_pool.all_failed");

        static Client refused(int status, String code) {
            return new Client("refused", status, code);
        }

        void check(Answer answer, Scene s) {
            switch (what) {
                case "served by a", "served by b" -> {
                    String by = what.substring(what.length() - 1);
                    assertEquals(200, answer.status(), answer.body());
                    assertFalse(answer.aborted(), "the whole answer arrived: " + answer.body());
                    assertTrue(answer.body().contains("from " + by), "served by " + by + ": " + answer.body());
                    if (answer.body().contains("data: ")) {
                        assertTrue(answer.body().contains("data: [DONE]"), "a complete stream: " + answer.body());
                    }
                    assertEquals(by.equals("a") ? 0 : 1, s.upB.requestCount(), "b is asked only when a failed");
                }
                case "stream broken visibly" -> {
                    assertEquals(200, answer.status());
                    assertTrue(answer.body().contains("from a"), "the text before the break was relayed");
                    assertFalse(answer.body().contains("[DONE]"), "F-4': no end marker: " + answer.body());
                    assertTrue(answer.aborted(), "F-4': the body is aborted, the client sees the break");
                    assertEquals(0, s.upB.requestCount(), "bytes with the client cannot be recalled: no failover");
                }
                case "cancelled" -> assertEquals(0, s.upB.requestCount(), "a cancel is no reason to switch");
                case "returned as is" -> {
                    assertEquals(400, answer.status());
                    assertTrue(answer.body().contains("bad field"), answer.body());
                    assertEquals(0, s.upB.requestCount(), "a None-class answer is never switched");
                }
                default -> {
                    assertEquals(status, answer.status(), answer.body());
                    JsonNode body = Gateway.read(answer.body());
                    assertEquals(code, body.path("error").path("code").asText(), answer.body());
                    if (what.equals("refused")) {
                        assertEquals(0, s.upA.requestCount() + s.upB.requestCount(), "no upstream reached");
                    }
                }
            }
        }

        void checkEvent(JsonNode event, Scene s) {
            switch (what) {
                case "served by a" -> {
                    assertEquals("success", event.path("outcome").asText(), event.toString());
                    assertEquals(s.idA, event.path("account_id").asLong());
                }
                case "served by b" -> {
                    assertEquals("success", event.path("outcome").asText(), event.toString());
                    assertEquals(s.idB, event.path("account_id").asLong());
                    JsonNode failed = event.path("attempts").get(0);
                    assertEquals(s.idA, failed.path("account_id").asLong(), event.toString());
                    assertTrue(failed.hasNonNull("failure_kind"), "the first attempt says why: " + event);
                }
                case "stream broken visibly" -> {
                    assertEquals("failure", event.path("outcome").asText(), event.toString());
                    assertEquals(code, event.path("error_code").asText());
                }
                case "cancelled" -> assertEquals("cancelled", event.path("outcome").asText(), event.toString());
                case "returned as is" -> assertEquals("client_error", event.path("outcome").asText(), event.toString());
                default -> {
                    assertEquals(status, event.path("status").asInt(), event.toString());
                    assertEquals(code, event.path("error_code").asText(), event.toString());
                }
            }
        }
    }

    /** An account's state after the row (admin API {@code state}). */
    record State(String what, String kind) {
        static final State UNTOUCHED = new State("untouched", null);
        static final State ACCOUNT_ERROR = new State("account error", "semantic_response_failed");

        static State accountCooled(String kind) {
            return new State("account cooled", kind);
        }

        static State modelCooled(String kind) {
            return new State("model cooled", kind);
        }

        void check(JsonNode state, String account) {
            String where = account + ": " + state;
            switch (what) {
                case "untouched" -> {
                    assertEquals("ok", state.path("status").asText(), where);
                    assertEquals(0, state.path("transient_failure_count").asInt(), where);
                    assertEquals(0, state.path("cooldown_remaining_s").asInt(), where);
                    assertEquals(0, state.path("models").size(), where);
                }
                case "account cooled" -> {
                    assertEquals("ok", state.path("status").asText(), where);
                    assertEquals(kind, state.path("last_failure_kind").asText(), where);
                    assertEquals(COOLDOWN, state.path("cooldown_remaining_s").asInt(), "F-3 account scope: " + where);
                    assertEquals(0, state.path("models").size(), "no model row: " + where);
                }
                case "model cooled" -> {
                    assertEquals("ok", state.path("status").asText(), where);
                    assertEquals(0, state.path("cooldown_remaining_s").asInt(), "F-3 model scope: " + where);
                    JsonNode row = state.path("models").get(0);
                    assertEquals(1, state.path("models").size(), where);
                    assertEquals("upstream-m", row.path("model_key").asText(), where);
                    assertEquals(kind, row.path("last_failure_kind").asText(), where);
                    assertEquals(COOLDOWN, row.path("cooldown_remaining_s").asInt(), where);
                }
                default -> {
                    assertEquals("error", state.path("status").asText(), "F-5 quota: " + where);
                    assertEquals(kind, state.path("last_failure_kind").asText(), where);
                }
            }
        }
    }

    /** One row's world: a fresh App, two fake upstreams, a fault proxy in front of each. */
    static final class Scene implements AutoCloseable {
        final Gateway gw;
        final FakeUpstream upA = FakeUpstream.start().handler(answers("a"));
        final FakeUpstream upB = FakeUpstream.start().handler(answers("b"));
        final TcpFaultProxy proxyA = TcpFaultProxy.to(upA);
        final TcpFaultProxy proxyB = TcpFaultProxy.to(upB);
        final long idA;
        final long idB;
        int requests;

        /** Runs a counting query on the database this scene's App writes to. */
        final ToLongFunction<String> sql;
        /** The database rows' own server, or null on the shared test database. */
        final DatabaseFaults database;

        /**
         * @param database where the App keeps its state (identity: the shared test database; a database row
         *                 passes {@code c -> c.withDatabase(…)} of its own server, never freezing the shared one)
         * @param sql      a counting query on that database
         */
        private Scene(UnaryOperator<DetourConfig> database, ToLongFunction<String> sql, DatabaseFaults faults) {
            this.sql = sql;
            this.database = faults;
            gw = Gateway.start(c -> database.apply(c.withTimeouts(Duration.ofSeconds(2), READ_GAP)));
            idA = gw.account("a", upA, MAPS_A, "{\"base_url\":\"" + proxyA.url() + "\"," + POLICY_A + "}");
            idB = gw.account("b", upB, MAPS_B, "{\"base_url\":\"" + proxyB.url() + "\"," + POLICY_B + "}");
            gw.key();
        }

        static Scene start() {
            return new Scene(UnaryOperator.identity(), Rows::number, null);
        }

        /** An App on the class's own embedded MariaDB, the one the database rows freeze and stop. */
        static Scene onOwnDatabase() {
            DatabaseFaults db = ownDatabase();
            return new Scene(c -> c.withDatabase(db.jdbcUrl(), db.user(), db.password()), query -> {
                try (Connection c = db.connect(); Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery(query)) {
                    rs.next();
                    return rs.getLong(1);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }, db);
        }

        /** The database answers again (thawed, or started on its old port) once the client has its answer. */
        Answer databaseBackAfter(Answer answer) {
            if (database.frozen()) {
                database.thaw();
            } else {
                database.start();
            }
            // the checks read through the admin API: once Detour has seen the database back (its probe ticks
            // every second) and what it applied in memory meanwhile is written
            Gateway.await(() -> gw.app.databaseHealth().available(), "Detour sees the database again");
            Gateway.await(() -> gw.app.stateWrites().pending() == 0, "the state changes made meanwhile are written");
            return answer;
        }

        Answer buffered() {
            requests++;
            HttpResponse<String> response = gw.post("/v1/chat/completions", BUFFERED);
            return new Answer(response.statusCode(), response.body(), false, requestId(response));
        }

        Answer streamed() {
            requests++;
            Received response = gw.postReceiving("/v1/chat/completions", STREAMED);
            return new Answer(response.statusCode(), response.text(), response.failed(),
                    response.headers().firstValue("x-detour-request-id").orElse(null));
        }

        Answer post(String path, byte[] body) throws IOException {
            requests++;
            String raw = rawExchange(gw.app.port(), path, gw.key(), body);
            int status = Integer.parseInt(raw.substring(9, 12));
            return new Answer(status, raw.substring(raw.indexOf("\r\n\r\n") + 4), false, null);
        }

        /** A declared body over the 32 MiB cap: refused from its headers, before any byte is read. */
        Answer tooLarge() throws IOException {
            requests++;
            try (Socket socket = new Socket("127.0.0.1", gw.app.port())) {
                socket.setSoTimeout(30_000); // hang guard
                socket.getOutputStream().write(("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Authorization: Bearer " + gw.key() + "\r\nContent-Type: application/json\r\nContent-Length: "
                        + (32L * 1024 * 1024 + 1) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                String raw = readAnswer(socket.getInputStream());
                return new Answer(Integer.parseInt(raw.substring(9, 12)), raw.substring(raw.indexOf("\r\n\r\n") + 4),
                        false, null);
            }
        }

        /**
         * A hold that only the test ends: the read gap goes up to a minute (settings, applied to the next
         * request), so Detour's own timeout cannot end the hold first on a slow machine.
         */
        void holdA(Fault stall) {
            JsonNode settings = gw.admin("PUT", "/settings", "{\"read_timeout_seconds\":60}");
            assertEquals(60, settings.path("read_timeout_seconds").asInt(), settings.toString());
            proxyA.fault(stall);
        }

        /** The client goes away while a's answer is held on the wire; then the wire lets it go. */
        Answer cancel(String body) throws Exception {
            requests++;
            RawHttpClient client = RawHttpClient.post(gw.app.port(), gw.key(), body);
            if (body.contains("\"stream\":true")) {
                client.awaitLineContaining("from a");
            }
            Gateway.await(() -> proxyA.held() == 1, "a's answer is held on the wire");
            client.abort();
            proxyA.release();
            Gateway.await(() -> gw.app.events().written() >= requests, "the cancelled request is logged");
            return new Answer(0, "", true, null);
        }

        private static String requestId(HttpResponse<?> response) {
            return response.headers().firstValue("x-detour-request-id").orElse(null);
        }

        @Override
        public void close() {
            gw.close();
            proxyA.close();
            proxyB.close();
            upA.close();
            upB.close();
        }
    }

    /** An upstream whose answers name it: "from a" or "from b", buffered or as a stream. */
    static java.util.function.Function<dev.detour.fake.RecordedRequest, Reply> answers(String name) {
        Reply buffered = Reply.json(200, Bodies.chatCompletion("upstream-m", "from " + name));
        Reply stream = Reply.sse(Bodies.chatStream("from " + name, " and more"));
        return request -> request.wantsStream() ? stream : buffered;
    }

    private static byte[] invalidUtf8() {
        byte[] head = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"".getBytes(StandardCharsets.UTF_8);
        byte[] tail = "\"}]}".getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[head.length + 2 + tail.length];
        System.arraycopy(head, 0, body, 0, head.length);
        body[head.length] = (byte) 0xC3; // a lead byte followed by no continuation byte
        body[head.length + 1] = (byte) 0x28;
        System.arraycopy(tail, 0, body, head.length + 2, tail.length);
        return body;
    }

    /** A's stream on a keep-alive connection, up to its terminating chunk. */
    private static String keepAliveStream(int port) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000); // hang guard
            byte[] body = STREAMED.getBytes(StandardCharsets.UTF_8);
            socket.getOutputStream().write(("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(body);
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            while (!all.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n0\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                all.write(b);
            }
            return all.toString(StandardCharsets.ISO_8859_1);
        }
    }

    /** One request with {@code Connection: close}, every answer byte as Latin-1 text. */
    private static String rawExchange(int port, String path, String key, byte[] body) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000); // hang guard
            socket.getOutputStream().write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                    + key + "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "
                    + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(body);
            socket.getOutputStream().flush();
            return readAnswer(socket.getInputStream());
        }
    }

    /** The status line and headers, then the body by its Content-Length, else up to the end of the connection. */
    private static String readAnswer(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        try {
            while (!all.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    return all.toString(StandardCharsets.ISO_8859_1);
                }
                all.write(b);
            }
            String head = all.toString(StandardCharsets.ISO_8859_1).toLowerCase(java.util.Locale.ROOT);
            int at = head.indexOf("\r\ncontent-length:");
            if (at >= 0) {
                int end = head.indexOf("\r\n", at + 2);
                all.write(in.readNBytes(Integer.parseInt(head.substring(at + 17, end).trim())));
            } else {
                in.transferTo(all);
            }
        } catch (java.net.SocketException e) {
            // a reset after the answer: what came is the answer
        }
        return all.toString(StandardCharsets.ISO_8859_1);
    }
}
