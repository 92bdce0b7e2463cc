package dev.detour.smart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.Bodies;
import dev.detour.fake.Reply;
import dev.detour.gateway.port.KeyEntry;
import dev.detour.gateway.wire.KeyHashes;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.OneUpstreamCase;
import dev.detour.testkit.RawHttpClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * L-1 / L-3 over the real App and a fake upstream: each per-key limit reached and refused with its code,
 * Retry-After and the tightest limit's x-ratelimit-* headers; the windows roll on the app's clock.
 */
class KeyLimitsIT extends OneUpstreamCase {
    private SmartFixture fx;

    @BeforeEach
    void pricedAccount() {
        fx = new SmartFixture(gw);
        fx.pricedAccount(upstream);
    }

    @Test
    void requestsPerMinuteAreRefusedWithRateLimitedUntilTheMinuteRollsOnTheAppsClock() {
        String key = fx.key("{\"name\":\"rpm\",\"rpm_limit\":2}");
        HttpResponse<String> first = fx.chat(key, "m");
        assertEquals(200, first.statusCode(), first.body());
        assertLimitHeaders(first, "requests", "2", "1", "61s");
        assertLimitHeaders(fx.chat(key, "m"), "requests", "2", "0", "61s");

        HttpResponse<String> refused = fx.chat(key, "m");
        assertEquals(429, refused.statusCode());
        assertEquals("key.rate_limited", SmartFixture.errorCode(refused));
        assertEquals("61", refused.headers().firstValue("retry-after").orElse(""));
        assertLimitHeaders(refused, "requests", "2", "0", "61s");
        assertEquals(2, upstream.requestCount(), "a refused request never reaches the upstream");

        gw.clock.advance(Duration.ofSeconds(60));
        assertEquals(429, fx.chat(key, "m").statusCode(), "60 s later both are still in the minute");
        gw.clock.advance(Duration.ofSeconds(1));
        assertEquals(200, fx.chat(key, "m").statusCode(), "61 s later they left it");
    }

    @Test
    void tokensPerMinuteCountTheUsageOfAnsweredRequestsAndRefuseWithTokenLimited() {
        String key = fx.key("{\"name\":\"tpm\",\"tpm_limit\":10}");
        HttpResponse<String> first = fx.chat(key, "m");
        assertEquals(200, first.statusCode());
        assertLimitHeaders(first, "tokens", "10", "10", "0s"); // at admission its usage had not arrived

        HttpResponse<String> refused = fx.chat(key, "m");
        assertEquals(429, refused.statusCode());
        assertEquals("key.token_limited", SmartFixture.errorCode(refused));
        assertEquals("61", refused.headers().firstValue("retry-after").orElse(""));
        gw.clock.advance(Duration.ofSeconds(61));
        assertEquals(200, fx.chat(key, "m").statusCode());
    }

    @Test
    void aRequestAboveTheConcurrencyLimitIsRefusedAndACancelledStreamGivesItsPlaceBack() throws IOException {
        JsonNode created = fx.createKey("{\"name\":\"one-at-a-time\",\"concurrency_limit\":1}");
        String key = created.path("key").asText();
        CountDownLatch release = new CountDownLatch(1);
        List<String> frames = new ArrayList<>(List.of(Bodies.chatRoleChunk(), Bodies.chatChunk("a")));
        for (int i = 0; i < 20; i++) { // several writes after the close: the first may still be accepted
            frames.add(Bodies.chatChunk("more " + i));
        }
        upstream.enqueue(Reply.sse(frames).holdAt(2).releasedBy(release).frameDelay(Duration.ofMillis(2)));
        try (RawHttpClient stream = RawHttpClient.post(gw.app.port(), key,
                "{\"model\":\"m\",\"stream\":true,\"messages\":[]}")) {
            stream.awaitFirstFrameIfStreaming();
            HttpResponse<String> refused = fx.chat(key, "m");
            assertEquals(429, refused.statusCode());
            assertEquals("key.concurrency_limited", SmartFixture.errorCode(refused));
            assertEquals("1", refused.headers().firstValue("retry-after").orElse(""));
            assertLimitHeaders(refused, "concurrent", "1", "0", "1s");
            stream.abort(); // the client goes away mid-stream
        }
        release.countDown();
        KeyEntry entry = gw.app.snapshot().view().keysByHash().get(KeyHashes.sha256Hex(key));
        Gateway.await(() -> gw.app.smartKeys().limits().headroom(entry).get(0).used() == 0,
                "the cancelled stream gave its place back");
        assertEquals(200, fx.chat(key, "m").statusCode());
        assertEquals(List.of("cancelled", "client_error", "success"), outcomes(3).stream().sorted().toList());
    }

    @Test
    void aSpendWindowRefusesInTheAnthropicEnvelopeUntilTheDayRollsOn() {
        String key = fx.key("{\"name\":\"daily\",\"spend_windows\":{\"day\":10,\"month\":null}}");
        assertEquals(200, fx.chat(key, "m").statusCode(), "the first request spends more than 10 micros");

        HttpResponse<String> refused = fx.post(key, "/v1/messages",
                "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertEquals(429, refused.statusCode());
        JsonNode body = Gateway.read(refused.body());
        assertEquals("error", body.path("type").asText(), refused.body());
        assertEquals("rate_limit_error", body.path("error").path("type").asText());
        assertEquals("key.window_spend_limit", body.path("error").path("code").asText());
        long retryAfter = Long.parseLong(refused.headers().firstValue("retry-after").orElse("0"));
        assertTrue(retryAfter > 86_400 && retryAfter <= 86_400 + 1_440, "a day and at most one step: " + retryAfter);
        assertEquals("10", refused.headers().firstValue("x-ratelimit-limit-spend-day").orElse(""));
        assertEquals("0", refused.headers().firstValue("x-ratelimit-remaining-spend-day").orElse(""));

        gw.clock.advance(Duration.ofSeconds(retryAfter - 1));
        assertEquals(429, fx.chat(key, "m").statusCode(), "one second before Retry-After");
        gw.clock.advance(Duration.ofSeconds(1));
        assertEquals(200, fx.chat(key, "m").statusCode(), "at Retry-After the spend left the day");
    }

    @Test
    void aStreamCarriesTheKeysHeadersOnItsHeadAndTheUpstreamsOwnGiveWay() {
        Reply stream = Reply.sse(Bodies.chatStream("hi")).header("x-ratelimit-limit-requests", "9999")
                .header("x-ratelimit-remaining-tokens", "123");
        upstream.enqueue(stream, stream);
        String limited = fx.key("{\"name\":\"limited\",\"rpm_limit\":5}");
        HttpResponse<String> answer = streamed(limited);
        assertEquals(200, answer.statusCode());
        assertTrue(answer.body().contains("[DONE]"));
        assertLimitHeaders(answer, "requests", "5", "4", "61s");
        assertFalse(answer.headers().firstValue("x-ratelimit-remaining-tokens").isPresent(),
                "the account's limits are not the key's");

        HttpResponse<String> unlimited = streamed(fx.key("{\"name\":\"free\"}"));
        assertEquals("9999", unlimited.headers().firstValue("x-ratelimit-limit-requests").orElse(""),
                "a key without limits passes the upstream's headers as before");
    }

    @Test
    void limitFieldsAreValidatedWithStableCodesShownAndClearedWithNull() {
        String[][] cases = {
            {"{\"name\":\"k\",\"rpm_limit\":-1}", "validation.key_policy.rpm_limit"},
            {"{\"name\":\"k\",\"rpm_limit\":0}", "validation.key_policy.rpm_limit"},
            {"{\"name\":\"k\",\"tpm_limit\":\"many\"}", "validation.key_policy.tpm_limit"},
            {"{\"name\":\"k\",\"concurrency_limit\":1.5}", "validation.key_policy.concurrency_limit"},
            {"{\"name\":\"k\",\"spend_windows\":{\"year\":5}}", "validation.key_policy.spend_windows"},
            {"{\"name\":\"k\",\"spend_windows\":{\"day\":\"5\"}}", "validation.key_policy.spend_windows"},
            {"{\"name\":\"k\",\"spend_windows\":{\"week\":-1}}", "validation.key_policy.spend_windows"},
            {"{\"name\":\"k\",\"spend_windows\":[1]}", "validation.key_policy.spend_windows"},
        };
        for (String[] c : cases) {
            assertEquals(c[1], gw.admin("POST", "/keys", c[0]).path("error").path("code").asText(), c[0]);
        }
        JsonNode created = fx.createKey("{\"name\":\"all\",\"rpm_limit\":60,\"tpm_limit\":100000,"
                + "\"concurrency_limit\":4,\"spend_windows\":{\"5h\":1000000,\"week\":20000000}}");
        long id = created.path("id").asLong();
        JsonNode shown = gw.admin("GET", "/keys/" + id, null);
        assertEquals(60, shown.path("rpm_limit").asLong());
        assertEquals(100000, shown.path("tpm_limit").asLong());
        assertEquals(4, shown.path("concurrency_limit").asInt());
        assertEquals(20000000, shown.path("spend_windows").path("week").asLong());
        JsonNode cleared = gw.admin("PUT", "/keys/" + id, "{\"rpm_limit\":null}");
        assertTrue(cleared.path("rpm_limit").isNull(), cleared.toString());
        assertEquals(4, cleared.path("concurrency_limit").asInt(), "the other limits stay");
        String audit = gw.admin("GET", "/audit?limit=5", null).toString();
        assertTrue(audit.contains("rpm_limit") && audit.contains("spend_windows"), audit);
    }

    private HttpResponse<String> streamed(String key) {
        return gw.send(HttpRequest.newBuilder(URI.create(gw.base() + "/v1/chat/completions"))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"stream\":true,\"messages\":[]}"))
                .build());
    }

    private List<String> outcomes(int expected) {
        return gw.events(expected).stream().map(e -> e.path("outcome").asText()).toList();
    }

    private static void assertLimitHeaders(HttpResponse<String> r, String kind, String limit, String remaining,
            String reset) {
        assertEquals(limit, r.headers().firstValue("x-ratelimit-limit-" + kind).orElse(""), r.headers().toString());
        assertEquals(remaining, r.headers().firstValue("x-ratelimit-remaining-" + kind).orElse(""));
        assertEquals(reset, r.headers().firstValue("x-ratelimit-reset-" + kind).orElse(""));
    }
}
