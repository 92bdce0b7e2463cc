package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.App;
import dev.detour.config.DetourConfig;
import dev.detour.testkit.DatabaseFaults;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.LoadClient;
import dev.detour.testkit.MutableClock;
import dev.detour.fake.Reply;
import dev.detour.testkit.TestApp;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * D-1 against a real mariadbd frozen with SIGSTOP for 10 s under steady traffic (its own embedded
 * MariaDB, never the shared test database): successes keep flowing while the database is frozen, a
 * failure during the freeze cools its route at once and is in the database after the thaw, and
 * every request's event arrives. Latencies are printed for the note, never asserted.
 */
class DatabaseFreezeIT {
    private static final Duration FREEZE = Duration.ofSeconds(10);
    private static final int CLIENTS = 3;
    private static final String CHAT = "{\"model\":\"gpt\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    private static final String MAPS = "[{\"from\":\"gpt\",\"to\":\"up-gpt\"}]";
    /** No same-account retry, a long cooldown (the controlled clock does not move anyway). */
    private static final String POLICY = "\"failure_policy\":{\"retry_count\":0,\"retry_interval_ms\":0,"
            + "\"cooldown_enabled\":true,\"cooldown_seconds\":600}";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private DatabaseFaults db;
    private App app;
    private FakeUpstream primaryUpstream;
    private FakeUpstream secondaryUpstream;
    private long primary;
    private String key;

    /** One client request as the traffic saw it. */
    private record Sent(long startNanos, long endNanos, int status, boolean duringFreeze) {
        double millis() {
            return (endNanos - startNanos) / 1e6;
        }
    }

    @BeforeEach
    void start() {
        db = DatabaseFaults.startFresh("it-freeze-db");
        DetourConfig config = DetourConfig.defaults(Path.of("target/it-freeze-data"), 0)
                .withDatabase(db.jdbcUrl(), db.user(), db.password())
                .withSecrets(TestApp.MASTER_KEY, TestApp.ADMIN_PASSWORD, TestApp.ADMIN_TOKEN);
        app = App.start(config, MutableClock.at("2026-11-29T10:00:00Z"));
        primaryUpstream = FakeUpstream.start().handler(r -> Reply.chatCompletion());
        secondaryUpstream = FakeUpstream.start().handler(r -> Reply.chatCompletion());
        admin("POST", "/groups", "{\"name\":\"default\"}");
        primary = account("primary", primaryUpstream, 0);
        account("secondary", secondaryUpstream, 1);
        key = admin("POST", "/keys", "{\"name\":\"freeze\"}").path("key").asText();
    }

    @AfterEach
    void stop() {
        try {
            if (app != null) {
                app.close();
            }
        } finally {
            db.close(); // thaws first, whatever happened
            primaryUpstream.close();
            secondaryUpstream.close();
        }
    }

    @Test
    void requestsNeverWaitForAFrozenDatabaseAndNothingIsLostAfterTheThaw() throws Exception {
        ConcurrentLinkedQueue<Sent> warmUp = new ConcurrentLinkedQueue<>();
        new Traffic(warmUp, false).runFor(Duration.ofSeconds(3)); // the JIT's warm-up: counted, not reported
        ConcurrentLinkedQueue<Sent> sent = new ConcurrentLinkedQueue<>();
        Traffic baseline = new Traffic(sent, false);
        baseline.runFor(Duration.ofSeconds(3));

        long frozenAt = System.nanoTime();
        db.freeze();
        Traffic steady = new Traffic(sent, true);
        steady.start();
        try {
            Gateway.await(() -> get("/readyz").body().contains("database: unavailable since"),
                    "/readyz reports the outage");
            HttpResponse<String> ready = get("/readyz");
            assertEquals(200, ready.statusCode(), "a young snapshot keeps the instance ready: " + ready.body());
            assertTrue(get("/metrics").body().contains("detour_database_up 0"), "the gauge shows the outage");
            assertTrue(get("/login").body().contains("id=\"database-banner\""), "the console shows the banner");

            // a failure during the freeze: the primary answers one 503; the client is served by the secondary
            steady.pause();
            int primaryCalls = primaryUpstream.requestCount();
            primaryUpstream.enqueue(Reply.openAiError(503, "upstream overloaded", "server_error"));
            HttpResponse<String> switched = chat();
            record(sent, switched, true);
            assertEquals(200, switched.statusCode(), "served by the secondary after the primary's 503");
            assertEquals(primaryCalls + 1, primaryUpstream.requestCount());
            int secondaryCalls = secondaryUpstream.requestCount();
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> next = chat();
                record(sent, next, true);
                assertEquals(200, next.statusCode());
            }
            assertEquals(primaryCalls + 1, primaryUpstream.requestCount(), "the cooling primary is avoided at once");
            assertEquals(secondaryCalls + 5, secondaryUpstream.requestCount());
            steady.resume();

            long left = FREEZE.toNanos() - (System.nanoTime() - frozenAt);
            if (left > 0) {
                TimeUnit.NANOSECONDS.sleep(left); // the fault's length, not a wait for a result
            }
            steady.stopAndAwaitIdle();
            assertTrue(db.frozen(), "every request of the freeze ended while the database was still frozen");
        } finally {
            db.thaw();
        }

        int total = warmUp.size() + sent.size();
        assertTrue(steady.count() > 0, "traffic ran during the freeze");
        assertTrue(sent.stream().allMatch(s -> s.status() == 200), "every client was served");
        Gateway.await(() -> app.stateWrites().pending() == 0, "the state written after the thaw");
        assertEquals(1, number("SELECT transient_failure_count FROM account_models WHERE account_id = " + primary
                + " AND model_key = 'up-gpt'"), "the freeze's failure is in the database");
        assertEquals(1, number("SELECT COUNT(*) FROM account_models WHERE account_id = " + primary
                + " AND cooldown_until IS NOT NULL"));
        Gateway.await(() -> number("SELECT COUNT(*) FROM request_events") == total, "every event arrived: " + total);
        Gateway.await(() -> get("/readyz").body().equals("ok\n"), "ready again without the detail");
        assertTrue(app.databaseHealth().available());
        report(sent);
    }

    @Test
    void aStoppedDatabaseRefusesAtOnceAndItsRestartReceivesTheFailureAndEveryEvent() {
        assertEquals(200, chat().statusCode());
        db.stop();
        Gateway.await(() -> !app.databaseHealth().available(), "the outage noticed");
        assertTrue(get("/readyz").body().contains("database: unavailable since"));
        primaryUpstream.enqueue(Reply.openAiError(503, "upstream overloaded", "server_error"));
        assertEquals(200, chat().statusCode(), "served by the secondary");
        int primaryCalls = primaryUpstream.requestCount();
        assertEquals(200, chat().statusCode());
        assertEquals(primaryCalls, primaryUpstream.requestCount(), "the cooling primary is avoided at once");
        assertEquals(1, app.stateWrites().pending(), "the failure waits for the database");

        db.start();
        Gateway.await(() -> app.stateWrites().pending() == 0, "the failure written after the restart");
        assertEquals(1, number("SELECT transient_failure_count FROM account_models WHERE account_id = " + primary));
        Gateway.await(() -> number("SELECT COUNT(*) FROM request_events") == 3, "every event arrived");
        Gateway.await(() -> app.databaseHealth().available(), "the outage over");
    }

    /**
     * D-1 with the database answering everything but the pool's own tables: another session holds {@code LOCK
     * TABLES accounts WRITE}, the revision moves, and the refresher's reload waits on that lock inside its read
     * (as it would on a slow or half-back database, up to the driver's 30 s). A request whose first account fails
     * meanwhile records that failure on the snapshot the reload is about to replace: it must neither wait for
     * the read nor be undone by it.
     */
    @Test
    void aFailureIsAppliedAtOnceWhileAPoolReloadWaitsOnTheDatabaseAndTheReloadKeepsIt() throws Exception {
        assertEquals(200, chat().statusCode());
        int primaryCalls = primaryUpstream.requestCount();
        try (Connection holder = db.connect(); Statement lock = holder.createStatement()) {
            lock.execute("LOCK TABLES accounts WRITE");
            try {
                execute("UPDATE pool_revision SET revision = revision + 1 WHERE id = 1");
                Gateway.await(() -> reloadsWaiting() == 1, "the reload waits on the lock");

                primaryUpstream.enqueue(Reply.openAiError(503, "upstream overloaded", "server_error"));
                HttpResponse<String> switched = send(HttpRequest.newBuilder(URI.create(base() + "/v1/chat/completions"))
                        .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(CHAT))
                        .timeout(Duration.ofSeconds(20)).build()); // the old code: until the lock or 30 s
                assertEquals(200, switched.statusCode(), "served by the secondary after the primary's 503");
                assertEquals(200, chat().statusCode());
                assertEquals(primaryCalls + 1, primaryUpstream.requestCount(), "the cooling primary is avoided");
                assertEquals(1, reloadsWaiting(), "the reload still waits: the request did not wait for it");
            } finally {
                lock.execute("UNLOCK TABLES");
            }
        }

        Gateway.await(() -> app.stateWrites().pending() == 0, "the failure written once the lock is gone");
        Gateway.await(() -> app.snapshot().view().revision() == number("SELECT revision FROM pool_revision"),
                "the reload ended on the database's pool");
        assertEquals(1, number("SELECT transient_failure_count FROM account_models WHERE account_id = " + primary
                + " AND model_key = 'up-gpt'"));
        assertEquals(200, chat().statusCode());
        assertEquals(primaryCalls + 1, primaryUpstream.requestCount(), "the reload kept the primary cooling");
    }

    /** Success latency before vs during the freeze, for the note (never asserted: machines are noisy). */
    private static void report(ConcurrentLinkedQueue<Sent> sent) {
        for (boolean frozen : new boolean[] {false, true}) {
            List<Double> ms = new ArrayList<>();
            sent.stream().filter(s -> s.duringFreeze() == frozen && s.status() == 200).forEach(s -> ms.add(s.millis()));
            Collections.sort(ms);
            if (!ms.isEmpty()) {
                System.out.printf("D-1 freeze IT: %s n=%d p50=%.1f ms p99=%.1f ms max=%.1f ms%n",
                        frozen ? "during freeze" : "before freeze", ms.size(), ms.get(ms.size() / 2),
                        ms.get(Math.min(ms.size() - 1, (int) Math.ceil(ms.size() * 0.99) - 1)), ms.get(ms.size() - 1));
            }
        }
    }

    /** {@value #CLIENTS} clients sending chat requests back to back. */
    private final class Traffic {
        private final ConcurrentLinkedQueue<Sent> sent;
        private final boolean duringFreeze;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicBoolean paused = new AtomicBoolean();
        private final AtomicInteger busy = new AtomicInteger();
        private final AtomicInteger count = new AtomicInteger();
        private final AtomicReference<IOException> failure = new AtomicReference<>();
        private final LoadClient http = new LoadClient(CLIENTS);
        private final List<Thread> threads = new ArrayList<>();

        Traffic(ConcurrentLinkedQueue<Sent> sent, boolean duringFreeze) {
            this.sent = sent;
            this.duringFreeze = duringFreeze;
        }

        void start() {
            for (int i = 0; i < CLIENTS; i++) {
                Thread t = new Thread(this::loop, "freeze-client-" + i);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
        }

        void runFor(Duration duration) throws InterruptedException, IOException {
            start();
            TimeUnit.NANOSECONDS.sleep(duration.toNanos());
            stopAndAwaitIdle();
        }

        /** Back to back on the traffic's own connection (see {@link LoadClient}: every answer is accounted for). */
        private void loop() {
            while (running.get()) {
                if (paused.get()) {
                    java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                    continue;
                }
                busy.incrementAndGet();
                try {
                    if (!paused.get()) {
                        long start = System.nanoTime();
                        int status = http.post(base() + "/v1/chat/completions", Map.of("Authorization", "Bearer " + key),
                                CHAT).status();
                        sent.add(new Sent(start, System.nanoTime(), status, duringFreeze));
                        count.incrementAndGet();
                    }
                } catch (IOException e) {
                    failure.set(e); // reported by stopAndAwaitIdle: a request the client cannot account for
                    return;
                } finally {
                    busy.decrementAndGet();
                }
            }
        }

        /** Stops new requests and waits until none is in flight (a request stuck on the database never is). */
        void pause() {
            paused.set(true);
            Gateway.await(() -> busy.get() == 0, "no request in flight");
        }

        void resume() {
            paused.set(false);
        }

        void stopAndAwaitIdle() throws InterruptedException, IOException {
            running.set(false);
            Gateway.await(() -> busy.get() == 0, "every request in flight ended");
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(30));
            }
            http.close();
            if (failure.get() != null) {
                throw new AssertionError("a client's request failed", failure.get());
            }
        }

        int count() {
            return count.get();
        }
    }

    private static void record(ConcurrentLinkedQueue<Sent> sent, HttpResponse<String> response, boolean freeze) {
        long end = System.nanoTime();
        long start = response.request().headers().firstValue("x-test-start").map(Long::parseLong).orElse(end);
        sent.add(new Sent(start, end, response.statusCode(), freeze));
    }

    private HttpResponse<String> chat() {
        return send(HttpRequest.newBuilder(URI.create(base() + "/v1/chat/completions"))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .header("x-test-start", Long.toString(System.nanoTime()))
                .POST(HttpRequest.BodyPublishers.ofString(CHAT))
                .timeout(Duration.ofSeconds(60)).build());
    }

    private HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofSeconds(10)).GET().build());
    }

    private long account(String name, FakeUpstream upstream, int priority) {
        JsonNode created = admin("POST", "/accounts", "{\"name\":\"" + name + "\",\"group\":\"default\","
                + "\"platform\":\"openai-compatible\",\"base_url\":\"" + upstream.url() + "\",\"api_key\":\"sk-test-"
                + name + "-secret\",\"model_mappings\":" + MAPS + ",\"priority\":" + priority + "," + POLICY + "}");
        assertNotNull(created.get("id"), "account created: " + created);
        return created.path("id").asLong();
    }

    private JsonNode admin(String method, String path, String body) {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(base() + "/admin/api" + path))
                .header("Authorization", "Bearer " + TestApp.ADMIN_TOKEN).header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body == null ? "" : body)).build());
        return Gateway.read(response.body().isEmpty() ? "{}" : response.body());
    }

    private long number(String sql) {
        try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : -1;
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** The refresher's read of the accounts, waiting on the table lock (the failure's own write waits too). */
    private long reloadsWaiting() {
        return number("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE STATE = 'Waiting for table metadata"
                + " lock' AND INFO LIKE '%FROM accounts a JOIN groups_%'");
    }

    private void execute(String sql) {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private String base() {
        return "http://127.0.0.1:" + app.port();
    }
}
