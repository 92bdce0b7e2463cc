package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.RecordedRequest;
import dev.detour.fake.Reply;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.KeepAliveClient;
import dev.detour.testkit.OneUpstreamCase;
import dev.detour.testkit.RawHttpClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * L-2 on the real App: one account whose every answer the fake upstream holds until the test lets it go
 * (one latch per upstream request), so "full", "waiting" and "a lease given back" happen exactly when the
 * test says. The wait bound is reached by moving the app's clock and running the queue's timer.
 */
class WaitQueueIT extends OneUpstreamCase {
    private static final String MAPS = "[{\"from\":\"gpt-q\",\"to\":\"upstream-q\"}]";
    private static final int CLIENTS = 20;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final List<CountDownLatch> answers = IntStream.range(0, CLIENTS + 2).mapToObj(i -> new CountDownLatch(1))
            .toList();
    private final AtomicInteger arrived = new AtomicInteger();

    @BeforeEach
    void holdEveryAnswer() {
        // the n-th request at the upstream is answered once answers[n] opens
        upstream.handler(r -> Reply.stallBeforeHeaders().releasedBy(answers.get(arrived.getAndIncrement())));
    }

    @AfterEach
    void releaseEveryAnswer() {
        answers.forEach(CountDownLatch::countDown);
    }

    private static String body(String client) {
        return "{\"model\":\"gpt-q\",\"messages\":[{\"role\":\"user\",\"content\":\"" + client + "\"}]}";
    }

    private CompletableFuture<HttpResponse<String>> send(String client) {
        return http.sendAsync(HttpRequest.newBuilder(URI.create(gw.base() + "/v1/chat/completions"))
                .header("Authorization", "Bearer " + gw.key()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body(client))).build(), HttpResponse.BodyHandlers.ofString());
    }

    private int waiting() {
        return gw.app.waitQueue().waiting();
    }

    private void awaitAtUpstream(int requests) {
        Gateway.await(() -> upstream.requestCount() >= requests, requests + " requests at the upstream");
    }

    private static String client(RecordedRequest request) {
        return Gateway.read(request.body()).path("messages").get(0).path("content").asText();
    }

    private static String code(HttpResponse<String> response) {
        return Gateway.read(response.body()).path("error").path("code").asText();
    }

    @Test
    void twentyClientsOnAnAccountWithTwoInFlightAreAllServedInArrivalOrderAndNeverMoreThanTwoAtTheUpstream() {
        gw.account("a", upstream, MAPS, "{\"max_in_flight\":2}");
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            calls.add(send("client-" + i));
            if (i < 2) {
                awaitAtUpstream(i + 1);
            } else {
                int queued = i - 1;
                Gateway.await(() -> waiting() == queued, queued + " waiting: client " + queued + " is in line");
            }
        }
        assertEquals(2, upstream.requestCount(), "the account's limit holds the others back");

        for (int served = 0; served < CLIENTS; served++) {
            answers.get(served).countDown(); // one answer ends: its lease goes to the head of the queue
            awaitAtUpstream(Math.min(CLIENTS, served + 3));
            assertTrue(upstream.concurrency().active() <= 2, "at most 2 at the upstream");
        }

        calls.forEach(c -> assertEquals(200, c.join().statusCode(), c.join().body()));
        assertEquals(IntStream.range(0, CLIENTS).mapToObj(i -> "client-" + i).toList(),
                upstream.requests().stream().map(WaitQueueIT::client).toList(), "served in arrival order");
        assertEquals(2, upstream.concurrency().highWater(), "never more than max_in_flight at the upstream");
        assertEquals(0, waiting());
        List<JsonNode> events = gw.events(CLIENTS);
        assertTrue(events.get(0).path("queued_ms").isNull(), "the first two never waited: " + events.get(0));
        long queued = events.stream().filter(e -> e.path("queued_ms").isInt()).count();
        assertEquals(CLIENTS - 2, queued, "every other request says how long it waited");
        String text = gw.send(HttpRequest.newBuilder(URI.create(gw.base() + "/metrics"))
                .header("Authorization", "Bearer " + dev.detour.testkit.TestApp.ADMIN_TOKEN).build()).body();
        assertTrue(text.contains("detour_queue_waiting 0"), text);
        assertTrue(text.contains("detour_queue_wait_seconds_count 18"), text);
    }

    @Test
    void aWaiterLetGoWhenDetourStopsIsToldItIsStoppingNotThatThePoolIsFull() {
        gw.account("a", upstream, MAPS, "{\"max_in_flight\":1}");
        CompletableFuture<HttpResponse<String>> first = send("first");
        awaitAtUpstream(1);
        CompletableFuture<HttpResponse<String>> second = send("second");
        Gateway.await(() -> waiting() == 1, "second waiting");

        gw.app.waitQueue().close(); // what D-3's stop does first: every waiter goes before the drain
        HttpResponse<String> stopped = second.join();
        assertEquals(503, stopped.statusCode(), stopped.body());
        assertEquals("gateway.shutting_down", code(stopped));
        assertEquals("1", stopped.headers().firstValue("Retry-After").orElse(""));
        answers.get(0).countDown();
        assertEquals(200, first.join().statusCode(), "the request in flight still finishes");
        assertEquals(1, upstream.requestCount(), "the let-go waiter never reached the upstream");
    }

    @Test
    void aWaiterWhoseClientDisconnectsLeavesAtOnceAndTheNextGetsItsPlace() throws Exception {
        gw.account("a", upstream, MAPS, "{\"max_in_flight\":1}");
        CompletableFuture<HttpResponse<String>> first = send("first");
        awaitAtUpstream(1);
        RawHttpClient gone = RawHttpClient.post(gw.app.port(), gw.key(), body("gone"));
        Gateway.await(() -> waiting() == 1, "the second client waits");
        CompletableFuture<HttpResponse<String>> third = send("third");
        Gateway.await(() -> waiting() == 2, "the third client waits behind it");

        gone.close();
        Gateway.await(() -> waiting() == 1, "the client that went away left the queue at once");
        answers.get(0).countDown();

        assertEquals(200, first.join().statusCode());
        awaitAtUpstream(2);
        answers.get(1).countDown();
        assertEquals(200, third.join().statusCode(), third.join().body());
        assertEquals(List.of("first", "third"), upstream.requests().stream().map(WaitQueueIT::client).toList(),
                "the upstream never saw the client that left");
        List<JsonNode> events = gw.events(3);
        JsonNode left = events.stream().filter(e -> e.path("outcome").asText().equals("cancelled")).findFirst()
                .orElseThrow(() -> new AssertionError("no cancelled event: " + events));
        assertEquals(0, left.path("attempts").size(), "no upstream was asked for it");
        assertTrue(left.path("queued_ms").isInt(), left.toString());
    }

    @Test
    void aKeptAliveConnectionWhoseRequestWaitedServesItsNextRequest() throws Exception {
        gw.account("a", upstream, MAPS, "{\"max_in_flight\":1}");
        CompletableFuture<HttpResponse<String>> first = send("first");
        awaitAtUpstream(1);
        try (KeepAliveClient connection = KeepAliveClient.open(gw.app.port())) {
            CompletableFuture<KeepAliveClient.Answer> waited = CompletableFuture.supplyAsync(() -> sendOn(connection,
                    "waited"));
            Gateway.await(() -> waiting() == 1, "the kept-alive client waits");
            answers.get(0).countDown();
            awaitAtUpstream(2);
            answers.get(1).countDown();
            assertEquals(200, waited.join().status(), waited.join().body());
            assertEquals(null, waited.join().header("connection"), "kept alive: the client sent nothing while it waited");

            answers.get(2).countDown();
            KeepAliveClient.Answer next = sendOn(connection, "next");

            assertEquals(200, next.status(), next.body());
            assertEquals(List.of("first", "waited", "next"),
                    upstream.requests().stream().map(WaitQueueIT::client).toList());
        }
        assertEquals(200, first.join().statusCode());
    }

    private KeepAliveClient.Answer sendOn(KeepAliveClient connection, String client) {
        try {
            return connection.send("POST", "/v1/chat/completions", gw.key(), body(client));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** With {@code settings}: "first" holds the one lease of a max_in_flight 1 account, {@code second} waits. */
    private List<CompletableFuture<HttpResponse<String>>> oneHeldOneWaiting(String settings, String second) {
        gw.admin("PUT", "/settings", settings);
        gw.account("a", upstream, MAPS, "{\"max_in_flight\":1}");
        CompletableFuture<HttpResponse<String>> first = send("first");
        awaitAtUpstream(1);
        CompletableFuture<HttpResponse<String>> waiter = send(second);
        Gateway.await(() -> waiting() == 1, "the second client waits");
        return List.of(first, waiter);
    }

    /** The 503 a request gets when every route stays full. */
    private static void assertAtCapacity(HttpResponse<String> refused) {
        assertEquals(503, refused.statusCode(), refused.body());
        assertEquals("route_pool.at_capacity", code(refused));
        assertEquals("1", refused.headers().firstValue("retry-after").orElse(null));
    }

    @Test
    void aWaitThatReachesQueueWaitSecondsAnswers503AtCapacityWithRetryAfter() {
        List<CompletableFuture<HttpResponse<String>>> calls = oneHeldOneWaiting("{\"queue_wait_seconds\":5}", "late");
        CompletableFuture<HttpResponse<String>> first = calls.get(0);
        CompletableFuture<HttpResponse<String>> late = calls.get(1);

        gw.clock.advance(Duration.ofSeconds(4));
        gw.app.waitQueue().expireDue();
        assertEquals(1, waiting(), "4 s of a 5 s bound: still waiting");
        assertFalse(late.isDone());
        gw.clock.advance(Duration.ofSeconds(1));
        gw.app.waitQueue().expireDue();

        assertAtCapacity(late.join());
        assertEquals(0, waiting());
        answers.get(0).countDown();
        assertEquals(200, first.join().statusCode());
        assertEquals(1, upstream.requestCount(), "the one that timed out never reached the upstream");
        assertEquals(0, gw.accountState(gw.admin("GET", "/accounts", null).path("items").get(0).path("id").asLong())
                .path("in_flight").asInt(), "no lease left behind");
    }

    @Test
    void aFullQueueAnswers503AtOnce() {
        List<CompletableFuture<HttpResponse<String>>> calls = oneHeldOneWaiting("{\"queue_max_length\":1}", "second");

        HttpResponse<String> refused = send("third").join(); // answered while the first is still held

        assertAtCapacity(refused);
        assertTrue(refused.body().contains("queue"), refused.body());
        assertEquals(1, waiting(), "the waiter keeps its place");
        answers.get(0).countDown();
        awaitAtUpstream(2);
        answers.get(1).countDown();
        calls.forEach(c -> assertEquals(200, c.join().statusCode()));
    }

    @Test
    void raisingMaxInFlightServesTheWaiterAtOnce() {
        List<CompletableFuture<HttpResponse<String>>> calls = oneHeldOneWaiting("{\"queue_wait_seconds\":30}",
                "second");
        long account = gw.admin("GET", "/accounts", null).path("items").get(0).path("id").asLong();

        gw.admin("PUT", "/accounts/" + account, "{\"max_in_flight\":2}");

        awaitAtUpstream(2); // while the first is still held: the new slot went to the waiter
        assertEquals(0, waiting());
        answers.get(0).countDown();
        answers.get(1).countDown();
        calls.forEach(c -> assertEquals(200, c.join().statusCode()));
    }

    @Test
    void queueWaitSecondsZeroIsTheImmediate503OfS5() {
        gw.admin("PUT", "/settings", "{\"queue_wait_seconds\":0}");
        gw.account("a", upstream, MAPS, "{\"max_in_flight\":1}");
        CompletableFuture<HttpResponse<String>> first = send("first");
        awaitAtUpstream(1);

        HttpResponse<String> refused = send("second").join();

        assertAtCapacity(refused);
        assertEquals(0, waiting());
        answers.get(0).countDown();
        assertEquals(200, first.join().statusCode());
    }
}
