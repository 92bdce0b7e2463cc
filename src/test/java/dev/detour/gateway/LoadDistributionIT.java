package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.Bodies;
import dev.detour.testkit.Gateway;
import dev.detour.fake.Reply;
import dev.detour.testkit.TwoUpstreamsCase;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** S-4 min pick gap live in the gateway; S-5 capacity overflow without any failure recorded. */
class LoadDistributionIT extends TwoUpstreamsCase {
    private static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"}]";

    @Test
    void twoQuickRequestsAreSpreadAcrossTwoEqualAccountsByTheMinPickGap() {
        gw.account("a", a, MAPS, null);
        gw.account("b", b, MAPS, null);
        // the clock does not move: the second request comes within 100 ms of the first pick
        assertEquals(200, gw.chat("gpt-5.6-sol").statusCode());
        assertEquals(200, gw.chat("gpt-5.6-sol").statusCode());
        assertEquals(1, a.requestCount(), "one request each");
        assertEquals(1, b.requestCount(), "one request each");
    }

    @Test
    void aFullAccountIsSkippedWithCapacityOverflowAndNoFailureRecorded() throws Exception {
        long idA = gw.account("a", a, MAPS, "{\"priority\":0,\"max_in_flight\":1}");
        gw.account("b", b, MAPS, "{\"priority\":1}");
        CountDownLatch release = new CountDownLatch(1);
        a.enqueue(Reply.sse(List.of(Bodies.chatRoleChunk(), Bodies.chatChunk("held"))).holdAt(1)
                .releasedBy(release));
        HttpResponse<InputStream> held = gw.postStreaming("/v1/chat/completions",
                "{\"model\":\"gpt-5.6-sol\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        BufferedReader reader = new BufferedReader(new InputStreamReader(held.body(), StandardCharsets.UTF_8));
        reader.readLine(); // the first frame arrived: the lease on a is held
        assertEquals(1, gw.app.leases().inFlight(idA));

        HttpResponse<String> second = gw.chat("gpt-5.6-sol");
        assertEquals(200, second.statusCode());
        assertEquals(1, b.requestCount(), "the second request overflowed to b");
        assertEquals(1, a.requestCount(), "a was never asked twice");
        release.countDown();
        reader.close();

        gw.events(2);
        JsonNode overflow = gw.event(second.headers().firstValue("x-detour-request-id").orElseThrow());
        String rejections = overflow.path("rejections").toString();
        assertTrue(rejections.contains("capacity_overflow_to_next"), rejections);
        JsonNode state = gw.accountState(idA);
        assertEquals(0, state.path("transient_failure_count").asInt(), "capacity is not health");
        assertEquals(0, state.path("cooldown_remaining_s").asInt());
    }

    @Test
    void statusIsPublicAndShowsCountsAndRateLimitedModelsWithoutSecrets() {
        long idA = gw.account("a", a, MAPS, "{\"priority\":0,\"failure_policy\":{\"retry_count\":0,"
                + "\"cooldown_enabled\":true,\"cooldown_seconds\":10}}");
        gw.account("b", b, MAPS, "{\"priority\":1}");
        a.enqueue(Reply.openAiError(429, "rate limit reached", "rate_limit_exceeded").header("retry-after", "60"));
        assertEquals(200, gw.chat("gpt-5.6-sol").statusCode());
        HttpResponse<String> status = gw.send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(gw.base() + "/status")).GET().build());
        assertEquals(200, status.statusCode(), "no credentials needed");
        JsonNode group = Gateway.read(status.body()).path("groups").get(0);
        assertEquals("default", group.path("name").asText());
        assertEquals(2, group.path("available").asInt() + group.path("cooling").asInt());
        JsonNode accountA = group.path("accounts").get(0);
        assertEquals("a", accountA.path("alias").asText());
        JsonNode limited = accountA.path("rate_limited_models").get(0);
        assertEquals("upstream-sol", limited.path("model").asText());
        assertEquals("2026-11-29T10:01:00Z", limited.path("until").asText());
        assertTrue(!status.body().contains("sk-test") && !status.body().contains(a.url()), "no secrets, no URLs");
        assertEquals(idA, gw.accountState(idA).path("rate_limited_models").size() == 1 ? idA : -1);
    }
}
