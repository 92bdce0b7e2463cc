package dev.detour.gateway.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.Bodies;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.RawHttpClient;
import dev.detour.fake.Reply;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * S-5 under load: 200 concurrent requests against three accounts with {@code max_in_flight} 3. Each
 * fake upstream counts its own concurrent requests; holds end on a latch the test releases.
 */
class LeasesIT {
    private static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"}]";
    private static final String LIMIT_3 = "{\"max_in_flight\":3}";
    private static final int CLIENTS = 200;
    private static final String BUFFERED = "{\"model\":\"gpt-5.6-sol\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    private static final String STREAMED = "{\"model\":\"gpt-5.6-sol\",\"stream\":true,\"messages\":[{\"role\":\"user\","
            + "\"content\":\"hi\"}]}";
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private Gateway gw;
    private final List<FakeUpstream> upstreams = new ArrayList<>();
    private final List<Long> ids = new ArrayList<>();

    @BeforeEach
    void start() {
        gw = Gateway.start();
        for (String name : List.of("a", "b", "c")) {
            FakeUpstream upstream = FakeUpstream.start();
            upstreams.add(upstream);
            ids.add(gw.account(name, upstream, MAPS, LIMIT_3));
        }
    }

    @AfterEach
    void stop() {
        gw.close();
        upstreams.forEach(FakeUpstream::close);
    }

    /** Every answer held until {@code gate} opens: buffered before its headers, a stream after its first frame. */
    private void holdEverythingUntil(CountDownLatch gate) {
        Reply buffered = Reply.stallBeforeHeaders().releasedBy(gate);
        Reply streamed = Reply.stallAfterFirstFrame(Bodies.chatStream("held", "then released")).releasedBy(gate);
        upstreams.forEach(u -> u.handler(r -> r.wantsStream() ? streamed : buffered));
    }

    private CompletableFuture<HttpResponse<String>> sendAsync(String body) {
        return http.sendAsync(HttpRequest.newBuilder(URI.create(gw.base() + "/v1/chat/completions"))
                .header("Authorization", "Bearer " + gw.key()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private List<CompletableFuture<HttpResponse<String>>> fire(int count) {
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            calls.add(sendAsync(i % 2 == 0 ? BUFFERED : STREAMED));
        }
        return calls;
    }

    private static long done(List<CompletableFuture<HttpResponse<String>>> calls) {
        return calls.stream().filter(CompletableFuture::isDone).count();
    }

    private int inFlight(long id) {
        return gw.accountState(id).path("in_flight").asInt();
    }

    @Test
    void twoHundredConcurrentRequestsPutAtMostThreeOnEachUpstreamAndTheRestGet503WithoutAnyFailureRecorded() {
        gw.admin("PUT", "/settings", "{\"queue_wait_seconds\":0}"); // S-5 itself: no L-2 queue in front of the 503
        CountDownLatch gate = new CountDownLatch(1);
        holdEverythingUntil(gate);
        gw.key();
        List<CompletableFuture<HttpResponse<String>>> calls = fire(CLIENTS);
        Gateway.await(() -> done(calls) == CLIENTS - 9, "191 answered while 9 are held");
        for (int i = 0; i < 3; i++) {
            assertEquals(3, upstreams.get(i).concurrency().highWater(), "overflow spread the load: upstream " + i);
            assertEquals(3, upstreams.get(i).requestCount());
            assertEquals(3, inFlight(ids.get(i)), "the admin API shows the held leases");
        }
        List<HttpResponse<String>> refused = calls.stream().filter(CompletableFuture::isDone)
                .map(CompletableFuture::join).toList();
        for (HttpResponse<String> r : refused) {
            assertEquals(503, r.statusCode(), r.body());
            assertEquals("route_pool.at_capacity", Gateway.read(r.body()).path("error").path("code").asText());
            assertEquals("1", r.headers().firstValue("retry-after").orElse(null));
        }

        gate.countDown();
        calls.forEach(c -> assertTrue(c.join().statusCode() == 200 || c.join().statusCode() == 503));
        assertEquals(9, calls.stream().filter(c -> c.join().statusCode() == 200).count());
        for (int i = 0; i < 3; i++) {
            assertEquals(3, upstreams.get(i).concurrency().highWater(), "never more than 3 at once");
            assertEquals(0, inFlight(ids.get(i)));
            JsonNode state = gw.accountState(ids.get(i));
            assertEquals(0, state.path("transient_failure_count").asInt(), "capacity is not health");
            assertEquals(0, state.path("cooldown_remaining_s").asInt());
        }
        String id = refused.get(0).headers().firstValue("x-detour-request-id").orElseThrow();
        gw.events(CLIENTS);
        JsonNode event = gw.event(id);
        assertEquals(0, event.path("attempts").size(), "no upstream was asked");
        assertEquals(3, event.path("rejections").findValuesAsText("reason").stream()
                .filter("capacity_overflow_to_next"::equals).count(), "every account was full");
    }

    @Test
    void underChurnTheLimitHoldsAtEveryUpstreamAndEveryLeaseIsReturned() {
        upstreams.forEach(u -> u.handler(FakeUpstream.standaloneHandler(3, java.time.Duration.ZERO)));
        gw.key();
        List<CompletableFuture<HttpResponse<String>>> calls = fire(CLIENTS);
        calls.forEach(c -> assertTrue(List.of(200, 503).contains(c.join().statusCode()), c.join().body()));
        assertTrue(calls.stream().anyMatch(c -> c.join().statusCode() == 200));
        for (int i = 0; i < 3; i++) {
            assertTrue(upstreams.get(i).concurrency().highWater() <= 3,
                    "upstream " + i + " saw " + upstreams.get(i).concurrency().highWater() + " at once");
            assertEquals(0, inFlight(ids.get(i)));
        }
    }

    @Test
    void clientsThatGoAwayMidRequestLeakNoLeaseAndTheFullCapacityComesBack() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        holdEverythingUntil(gate);
        List<RawHttpClient> clients = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            clients.add(RawHttpClient.post(gw.app.port(), gw.key(), i % 2 == 0 ? STREAMED : BUFFERED));
        }
        upstreams.forEach(u -> awaitQuietly(u, 3));
        for (RawHttpClient c : clients) {
            c.awaitFirstFrameIfStreaming();
        }
        // a share of each kind goes away while the upstream still holds the answer
        List<RawHttpClient> cancelled = List.of(clients.get(0), clients.get(2), clients.get(4), clients.get(1),
                clients.get(3));
        for (RawHttpClient c : cancelled) {
            c.close();
        }
        gate.countDown();
        for (RawHttpClient c : clients) {
            if (!cancelled.contains(c)) {
                assertTrue(c.readToEnd().startsWith("HTTP/1.1 200"), "the clients that stayed get their answer");
            }
        }
        for (long id : ids) {
            Gateway.await(() -> inFlight(id) == 0, "in-flight back to 0 on account " + id);
            assertEquals(0, gw.accountState(id).path("transient_failure_count").asInt(), "a cancel is not charged");
        }
        assertEquals(9, gw.events(9).size(), "one event per request, cancelled ones too");

        // no lease leaked: the whole capacity (3 × 3) is there again
        CountDownLatch second = new CountDownLatch(1);
        holdEverythingUntil(second);
        upstreams.forEach(u -> u.concurrency().resetHighWater());
        List<CompletableFuture<HttpResponse<String>>> later = fire(9);
        upstreams.forEach(u -> awaitQuietly(u, 6));
        second.countDown();
        later.forEach(c -> assertEquals(200, c.join().statusCode(), c.join().body()));
        upstreams.forEach(u -> assertEquals(3, u.concurrency().highWater()));
    }

    private static void awaitQuietly(FakeUpstream upstream, int requests) {
        try {
            upstream.awaitRequests(requests);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
