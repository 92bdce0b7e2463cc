package dev.detour.galera;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.detour.fake.FakeUpstream;
import dev.detour.fake.Reply;
import dev.detour.testkit.DetourProcess;
import dev.detour.testkit.GaleraCluster;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.NginxFront;
import dev.detour.testkit.TestApp;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A pool served by three (or {@code count}) instances on the shared Galera cluster (an emptied schema), each
 * writing through a different node, nginx round-robin in front: one account on a fake upstream mapping the given models, and a
 * Detour key. Every instance serves the first model before the tests run.
 */
final class GaleraPool implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final FakeUpstream upstream;
    final List<DetourProcess> instances;
    final NginxFront nginx;
    final long accountId;
    final String key;

    private GaleraPool(FakeUpstream upstream, List<DetourProcess> instances, NginxFront nginx, long accountId,
            String key) {
        this.upstream = upstream;
        this.instances = instances;
        this.nginx = nginx;
        this.accountId = accountId;
        this.key = key;
    }

    /** @param accountFields extra fields of the account's JSON (e.g. {@code "max_in_flight":3,}), or "" */
    static GaleraPool start(String name, String accountFields, List<String> models) throws Exception {
        return start(name, 3, accountFields, models, Map.of());
    }

    /** As {@link #start(String, String, List)} with {@code count} instances, each given {@code env} besides the URL. */
    static GaleraPool start(String name, int count, String accountFields, List<String> models, Map<String, String> env)
            throws Exception {
        GaleraCluster cluster = GaleraCluster.shared();
        cluster.emptySchema();
        FakeUpstream upstream = FakeUpstream.start();
        upstream.handler(r -> Reply.chatCompletion());
        List<DetourProcess> instances = List.of();
        NginxFront nginx = null;
        try {
            instances = cluster.startInstances(name, count, env);
            nginx = NginxFront.start(name + "-nginx", instances);
            DetourProcess first = instances.get(0);
            admin(first, "POST", "/groups", "{\"name\":\"default\"}");
            String mappings = models.stream().map(m -> "{\"from\":\"" + m + "\",\"to\":\"" + m + "\"}")
                    .collect(Collectors.joining(","));
            JsonNode account = admin(first, "POST", "/accounts", "{\"name\":\"a\",\"group\":\"default\","
                    + "\"platform\":\"openai-compatible\",\"base_url\":\"" + upstream.url() + "\","
                    + "\"api_key\":\"sk-test-galera\"," + accountFields + "\"model_mappings\":[" + mappings + "]}");
            String key = admin(first, "POST", "/keys", "{\"name\":\"galera-key\"}").path("key").asText();
            GaleraPool pool = new GaleraPool(upstream, instances, nginx, account.path("id").asLong(), key);
            for (DetourProcess instance : instances) { // each snapshot picks the new pool up within its refresh
                Gateway.await(() -> pool.status(instance.url(), models.get(0)) == 200, "instance " + instance
                        + " serves");
            }
            return pool;
        } catch (Exception | AssertionError e) {
            new GaleraPool(upstream, instances, nginx, 0, null).close();
            throw e;
        }
    }

    HttpResponse<String> chat(String base, String model) throws IOException, InterruptedException {
        return chat(base, model, "hi");
    }

    /** A chat request whose one user message is {@code content} (e.g. an id the fake upstream can count). */
    HttpResponse<String> chat(String base, String model, String content) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions"))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(chatBody(model, content)))
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** A chat request body with one user message, {@code content}. */
    static String chatBody(String model, String content) {
        return "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"" + content + "\"}]}";
    }

    /** The answer's status, or -1 when none came. */
    int status(String base, String model) {
        try {
            return chat(base, model).statusCode();
        } catch (IOException | InterruptedException e) {
            return -1;
        }
    }

    static JsonNode admin(DetourProcess instance, String method, String path, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(instance.url() + "/admin/api" + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + TestApp.ADMIN_TOKEN).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertTrue(response.statusCode() / 100 == 2, method + " " + path + " → " + response.statusCode() + " "
                + response.body());
        return JSON.readTree(response.body());
    }

    /** The first column of the first row of {@code query} on node {@code n} of the shared cluster, as a number. */
    static long number(int node, String query) {
        return Long.parseLong(text(node, query));
    }

    /** The first column of the first row of {@code query} on node {@code n} of the shared cluster, read causally. */
    static String text(int node, String query) {
        try (Connection c = GaleraCluster.shared().connectCausal(node); Statement s = c.createStatement();
                ResultSet r = s.executeQuery(query)) {
            if (!r.next()) {
                throw new AssertionError("no row: " + query);
            }
            return r.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException(query + " on node " + node, e);
        }
    }

    /**
     * The served requests whose event is not on node 1 ({@code storedIds}: a query of the request ids stored),
     * counted by when each was sent against the test's {@code moments} (name → epoch ms, in order), with the
     * first ids: tells which phase of a fault a lost batch belongs to.
     */
    static String lostEvents(Map<String, Long> served, String storedIds, Map<String, Long> moments) {
        Set<String> stored = new HashSet<>();
        try (Connection c = GaleraCluster.shared().connectCausal(1); Statement s = c.createStatement();
                ResultSet r = s.executeQuery(storedIds)) {
            while (r.next()) {
                stored.add(r.getString(1));
            }
        } catch (SQLException e) {
            return "\n  lost events not listed: " + e;
        }
        List<Map.Entry<String, Long>> lost = served.entrySet().stream().filter(e -> !stored.contains(e.getKey()))
                .sorted(Map.Entry.comparingByValue()).toList();
        Map<String, Long> byPhase = new LinkedHashMap<>();
        String first = moments.isEmpty() ? "any moment" : moments.keySet().iterator().next(); // a report never throws
        for (Map.Entry<String, Long> e : lost) {
            String phase = "before " + first;
            for (Map.Entry<String, Long> m : moments.entrySet()) {
                if (e.getValue() >= m.getValue()) {
                    phase = "after " + m.getKey();
                }
            }
            byPhase.merge(phase, 1L, Long::sum);
        }
        StringBuilder out = new StringBuilder("\n  served without an event on node 1: " + lost.size() + " " + byPhase);
        lost.stream().limit(10).forEach(e -> out.append("\n    ").append(e.getKey()).append(" sent at ")
                .append(Instant.ofEpochMilli(e.getValue())));
        return out.toString();
    }

    /**
     * What a count of request events that did not arrive must tell: the count on each node, each instance's
     * event writer and database state as its /metrics shows them, and the warnings and errors it logged last.
     */
    static String eventsReport(String countQuery, List<DetourProcess> instances) {
        StringBuilder out = new StringBuilder();
        for (int node = 1; node <= GaleraCluster.NODES; node++) {
            String count;
            try {
                count = text(node, countQuery);
            } catch (RuntimeException | AssertionError e) {
                count = e.toString();
            }
            out.append("\n  node ").append(node).append(": ").append(count);
        }
        for (DetourProcess instance : instances) {
            out.append("\n  ").append(instance).append(": ").append(metricLines(instance, "detour_event",
                    "detour_database_", "detour_state_writes_pending", "detour_requests_total"));
            List<String> logged = instance.lines(l -> l.contains("WARN") || l.contains("ERROR")
                    || l.contains("written again") || l.startsWith("Exception in thread"));
            logged.subList(Math.max(0, logged.size() - 40), logged.size()).forEach(l -> out.append("\n    ").append(l));
        }
        return out.toString();
    }

    /** The /metrics sample lines of one instance whose names start with one of {@code prefixes}. */
    static List<String> metricLines(DetourProcess instance, String... prefixes) {
        try {
            return metrics(instance).lines().filter(l -> !l.startsWith("#"))
                    .filter(l -> Arrays.stream(prefixes).anyMatch(l::startsWith)).toList();
        } catch (IOException | InterruptedException | RuntimeException e) {
            return List.of(e.toString());
        }
    }

    /** The sum of a /metrics series' samples on one instance, or -1 when it cannot be read. */
    static long metric(DetourProcess instance, String name) {
        try {
            return (long) metrics(instance).lines().filter(l -> l.startsWith(name + " ") || l.startsWith(name + "{"))
                    .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
        } catch (IOException | InterruptedException | RuntimeException e) {
            return -1;
        }
    }

    private static String metrics(DetourProcess instance) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(instance.url() + "/metrics"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    @Override
    public void close() {
        if (nginx != null) {
            nginx.close();
        }
        instances.forEach(DetourProcess::close);
        upstream.close();
    }
}
