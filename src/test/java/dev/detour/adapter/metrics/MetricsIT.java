package dev.detour.adapter.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.App;
import dev.detour.config.DetourConfig;
import dev.detour.fake.Reply;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.OneUpstreamCase;
import dev.detour.testkit.TestApp;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** O-2: /metrics is Prometheus text and its counters move with real proxied requests. */
class MetricsIT extends OneUpstreamCase {
    private static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"}]";
    private static final String SUCCESS = "detour_requests_total{outcome=\"success\",endpoint=\"chat_completions\"}";
    private static final String FAILURE = "detour_requests_total{outcome=\"failure\",endpoint=\"chat_completions\"}";
    private HttpResponse<String> scrape(String base, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/metrics")).GET();
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return gw.send(b.build());
    }

    private Map<String, Double> metrics() {
        HttpResponse<String> response = scrape(gw.base(), null);
        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));
        return PrometheusParser.parse(response.body());
    }

    @Test
    void countersMoveWithProxiedRequestsAndTheOutputParses() {
        gw.account("a", upstream, MAPS, "{\"failure_policy\":{\"retry_count\":0,\"cooldown_enabled\":false}}");
        Map<String, Double> before = metrics();
        for (int i = 0; i < 3; i++) {
            assertEquals(200, gw.chat("gpt-5.6-sol").statusCode());
        }
        upstream.enqueue(Reply.openAiError(500, "boom", "server_error"));
        assertTrue(gw.chat("gpt-5.6-sol").statusCode() >= 500);
        // a request is counted with its event, which its thread records once the answer is out: the client can
        // read the answer, and scrape, before that (a full suite run once did); its latency is recorded last
        double counted = before.getOrDefault(SUCCESS, 0.0) + before.getOrDefault(FAILURE, 0.0) + 4;
        Gateway.await(() -> {
            Map<String, Double> now = metrics();
            return now.getOrDefault(SUCCESS, 0.0) + now.getOrDefault(FAILURE, 0.0) == counted
                    && now.getOrDefault("detour_request_duration_seconds_count", 0.0) == 4.0;
        }, "the four requests counted");
        Map<String, Double> after = metrics();

        assertEquals(before.getOrDefault(SUCCESS, 0.0) + 3, after.get(SUCCESS));
        assertEquals(before.getOrDefault(FAILURE, 0.0) + 1, after.get(FAILURE));
        assertEquals(3.0, after.get("detour_upstream_attempts_total{failure_kind=\"none\"}"));
        double failedAttempts = after.entrySet().stream()
                .filter(e -> e.getKey().startsWith("detour_upstream_attempts_total{") && !e.getKey().contains("\"none\""))
                .mapToDouble(Map.Entry::getValue).sum();
        assertEquals(1.0, failedAttempts);
        assertEquals(4.0, after.get("detour_request_duration_seconds_count"));
        assertEquals(4.0, after.get("detour_upstream_attempt_duration_seconds_count"));
        assertEquals(4.0, after.get("detour_request_duration_seconds_bucket{le=\"+Inf\"}"));
        assertEquals(0.0, after.get("detour_in_flight_requests"));
        assertTrue(after.containsKey("detour_event_queue_depth"));
        assertEquals(0.0, after.get("detour_event_queue_dropped_total"));
        assertTrue(after.containsKey("detour_cooling_accounts") && after.containsKey("detour_unavailable_models"));
        assertBucketsAreCumulative(after, "detour_request_duration_seconds");
        // the four requests' events reach the database: the writer's own count says so
        double written = before.get("detour_events_written_total");
        Gateway.await(() -> metrics().get("detour_events_written_total") == written + 4, "four events written");
    }

    @Test
    void probesAndTtftAreCounted() {
        gw.app.metrics().probe(true);
        gw.app.metrics().probe(false);
        gw.app.metrics().probe(true);
        gw.account("a", upstream, MAPS, null);
        upstream.enqueue(Reply.sse(dev.detour.fake.Bodies.chatStream("hi", " there")));
        HttpResponse<String> streamed = gw.post("/v1/chat/completions",
                "{\"model\":\"gpt-5.6-sol\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertEquals(200, streamed.statusCode());
        Map<String, Double> m = metrics();
        assertEquals(2.0, m.get("detour_probes_total{result=\"ok\"}"));
        assertEquals(1.0, m.get("detour_probes_total{result=\"failed\"}"));
        assertEquals(1.0, m.get("detour_ttft_seconds_count"));
    }

    private static void assertBucketsAreCumulative(Map<String, Double> m, String histogram) {
        double previous = 0;
        for (Map.Entry<String, Double> e : m.entrySet()) {
            if (e.getKey().startsWith(histogram + "_bucket")) {
                assertTrue(e.getValue() >= previous, e.getKey());
                previous = e.getValue();
            }
        }
    }

    @Test
    void onANonLoopbackBindMetricsNeedTheAdminToken() {
        DetourConfig c = TestApp.config();
        DetourConfig wide = new DetourConfig("0.0.0.0", 0, c.dataDir(), c.dbUrl(), c.dbUser(), c.dbPassword(),
                c.masterKey(), c.adminPassword(), c.adminToken(), c.connectTimeout(), c.readTimeout(),
                c.recoveryTick(), c.trustedProxies(), c.shutdownGrace());
        try (App app = TestApp.start(wide, gw.clock)) {
            String base = "http://127.0.0.1:" + app.port();
            assertEquals(401, scrape(base, null).statusCode());
            assertEquals(401, scrape(base, "wrong-token-0123456789").statusCode());
            HttpResponse<String> ok = scrape(base, TestApp.ADMIN_TOKEN);
            assertEquals(200, ok.statusCode());
            assertTrue(PrometheusParser.parse(ok.body()).containsKey("detour_in_flight_requests"));
        }
        assertEquals(200, scrape(gw.base(), null).statusCode(), "loopback bind: open");
    }

    @Test
    void onALoopbackBindARequestRelayedByAProxyNeedsTheAdminToken() {
        HttpRequest.Builder relayed = HttpRequest.newBuilder(URI.create(gw.base() + "/metrics")).GET()
                .header("X-Forwarded-For", "203.0.113.9");
        assertEquals(401, gw.send(relayed.build()).statusCode(), "nginx forwarded it: not a local scrape");
        HttpResponse<String> ok = gw.send(relayed.header("Authorization", "Bearer " + TestApp.ADMIN_TOKEN).build());
        assertEquals(200, ok.statusCode());
        assertEquals(200, scrape(gw.base(), null).statusCode(), "a local scraper still needs nothing");
    }
}
