package dev.detour.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.App;
import dev.detour.config.DetourConfig;
import dev.detour.fake.FakeUpstream;
import java.util.function.UnaryOperator;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A running Detour for end-to-end tests: the real App on port 0 against the shared MariaDB, a
 * controllable clock, JSON helpers for the admin API and a plain HTTP client for the proxy.
 */
public final class Gateway implements AutoCloseable {
    public static final ObjectMapper JSON = new ObjectMapper();
    public final MutableClock clock;
    public final App app;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /**
     * The relay's own client: a connection that carried an admin or console call belongs to Jetty for good (the
     * front hands it over), so relay calls on it would never meet the front, which serves the relay in production.
     */
    private final HttpClient relayHttp = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private String key;

    private Gateway(MutableClock clock, App app) {
        this.clock = clock;
        this.app = app;
    }

    /** Cleans the database, then starts a fresh App (fresh snapshot, no leases, empty queue). */
    public static Gateway start() {
        return start(UnaryOperator.identity());
    }

    /** As {@link #start()}, with the test config adjusted (e.g. a small read timeout). */
    public static Gateway start(UnaryOperator<DetourConfig> adjust) {
        TestDatabase.clean();
        MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
        Gateway gateway = new Gateway(clock, TestApp.start(adjust.apply(TestApp.config()), clock));
        gateway.group("default");
        return gateway;
    }

    /**
     * Closes this App and starts a fresh one on the same database, not cleaned (what a restart finds:
     * e.g. rows corrupted meanwhile), with the same clock and Detour key.
     */
    public Gateway restart() {
        return restart(UnaryOperator.identity());
    }

    /** As {@link #restart()}, with the test config adjusted (e.g. another master key). */
    public Gateway restart(UnaryOperator<DetourConfig> adjust) {
        app.close();
        Gateway restarted = new Gateway(clock, TestApp.start(adjust.apply(TestApp.config()
                .withDataDir(app.config().dataDir())), clock));
        restarted.key = key;
        return restarted;
    }

    /**
     * A second App on the same database (not cleaned) with the same clock and Detour key: another instance of
     * the cluster, registered beside this one. Close it yourself.
     */
    public Gateway beside() {
        Gateway other = new Gateway(clock, TestApp.start(clock));
        other.key = key;
        return other;
    }

    public String base() {
        return "http://127.0.0.1:" + app.port();
    }

    public long group(String name) {
        return admin("POST", "/groups", "{\"name\":\"" + name + "\"}").path("id").asLong();
    }

    /** An account on the fake upstream; {@code extraJson} is merged into the body (e.g. failure_policy). */
    public long account(String name, FakeUpstream upstream, String mappingsJson, String extraJson) {
        return account(name, upstream.url(), mappingsJson, extraJson);
    }

    /** An account on any upstream (e.g. a {@link SocketUpstream}). */
    public long account(String name, String baseUrl, String mappingsJson, String extraJson) {
        ObjectNode body = (ObjectNode) read("{\"name\":\"" + name + "\",\"group\":\"default\",\"platform\":"
                + "\"openai-compatible\",\"base_url\":\"" + baseUrl + "\",\"api_key\":\"sk-test-" + name
                + "-secret\",\"model_mappings\":" + mappingsJson + "}");
        if (extraJson != null) {
            ((ObjectNode) read(extraJson)).fields().forEachRemaining(e -> body.set(e.getKey(), e.getValue()));
        }
        JsonNode created = admin("POST", "/accounts", body.toString());
        if (!created.has("id")) {
            throw new IllegalStateException("account not created: " + created);
        }
        return created.path("id").asLong();
    }

    /** Creates the default group on first use and a key; later proxy calls use it. */
    public String key() {
        if (key == null) {
            key = admin("POST", "/keys", "{\"name\":\"test-key\"}").path("key").asText();
        }
        return key;
    }

    /** The id of the "default" group every account here joins. */
    public long defaultGroupId() {
        return admin("GET", "/groups", null).path("items").get(0).path("id").asLong();
    }

    /** S-9 is opt-in per group: turns group halts on for the default group. */
    public void enableGroupHalt() {
        admin("PUT", "/groups/" + defaultGroupId(), "{\"name\":\"default\",\"halt_policy\":\"on\"}");
    }

    public JsonNode admin(String method, String path, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base() + "/admin/api" + path))
                .header("Authorization", "Bearer " + TestApp.ADMIN_TOKEN).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> response = send(b.build());
        return response.body().isEmpty() ? JSON.createObjectNode() : read(response.body());
    }

    public JsonNode accountState(long id) {
        return admin("GET", "/accounts/" + id, null).path("state");
    }

    public HttpResponse<String> chat(String model) {
        return post("/v1/chat/completions", "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"hi\"}]}");
    }

    public HttpResponse<String> post(String path, String body) {
        return send(postRequest(path, body));
    }

    public HttpResponse<InputStream> postStreaming(String path, String body) {
        return send(postRequest(path, body), HttpResponse.BodyHandlers.ofInputStream());
    }

    /** A streamed POST read to its end or its break, keeping every byte that arrived (see {@link Received}). */
    public Received postReceiving(String path, String body) {
        try {
            return Received.send(relayHttp, postRequest(path, body));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private HttpRequest postRequest(String path, String body) {
        return HttpRequest.newBuilder(URI.create(base() + path)).header("Authorization", "Bearer " + key())
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    public HttpResponse<String> send(HttpRequest request) {
        return send(request, HttpResponse.BodyHandlers.ofString());
    }

    private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        try {
            return clientFor(request).send(request, handler);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private HttpClient clientFor(HttpRequest request) {
        String path = request.uri().getPath();
        return path.startsWith("/v1/") ? relayHttp : http;
    }

    /** Waits until every request so far has its event in the database; returns all events, oldest first. */
    public List<JsonNode> events(int expected) {
        await(() -> app.events().written() >= expected, "events written: " + expected);
        JsonNode page = admin("GET", "/requests?limit=200", null);
        List<JsonNode> items = new java.util.ArrayList<>();
        page.path("items").forEach(items::add);
        java.util.Collections.reverse(items);
        return items;
    }

    /**
     * D-1: waits until the pool-state changes this instance applied in memory (failures, success
     * clearing, halts) are written, before a test looks at MariaDB behind the gateway's back.
     */
    public void settled() {
        await(() -> app.stateWrites().pending() == 0, "state writes landed");
    }

    public JsonNode event(String requestId) {
        return admin("GET", "/requests/" + requestId, null);
    }

    /** Polls a condition (never a timing assertion): fails only if it stays false for 30 s. */
    public static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition never became true: " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    public static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        app.close();
    }
}
