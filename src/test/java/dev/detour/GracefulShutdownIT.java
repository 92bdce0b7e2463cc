package dev.detour;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.fake.Bodies;
import dev.detour.testkit.Configs;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.OneUpstreamCase;
import dev.detour.testkit.RawHttpClient;
import dev.detour.fake.Reply;
import dev.detour.testkit.Rows;
import dev.detour.testkit.TestApp;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * O-5 + N-4 + D-3 in-process: shutdown during 20 in-flight streams lets them finish and writes their 20 events;
 * a stream still open when the grace ends is cut visibly and logged. The real SIGTERM: {@link ShutdownProcessIT}.
 */
class GracefulShutdownIT extends OneUpstreamCase {
    private static final int STREAMS = 20;

    @Test
    void shutdownStopsAcceptingLetsTwentyStreamsFinishAndKeepsTheirEvents() throws Exception {
        gw.account("a", upstream, "[{\"from\":\"m\",\"to\":\"m\"}]", "{\"max_in_flight\":0}");
        gw.key();
        CountDownLatch release = new CountDownLatch(1);
        upstream.handler(r -> Reply.stallAfterFirstFrame(Bodies.chatStream("first", " last-words")).releasedBy(release));
        ExecutorService clients = Executors.newFixedThreadPool(STREAMS);
        List<Future<String>> bodies = new ArrayList<>();
        String body = "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        for (int i = 0; i < STREAMS; i++) {
            bodies.add(clients.submit(() -> {
                HttpResponse<InputStream> response = gw.postStreaming("/v1/chat/completions", body);
                try (InputStream in = response.body()) {
                    return response.statusCode() + " " + new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }));
        }
        upstream.awaitRequests(STREAMS);
        Gateway.await(() -> gw.app.leases().total() == STREAMS, "all streams in flight");
        int port = gw.app.port();

        Thread closer = new Thread(gw.app::close, "test-shutdown");
        closer.start();
        Gateway.await(() -> !RawHttpClient.accepting(port), "the connector stops accepting");
        assertTrue(closer.isAlive(), "close() waits for the in-flight streams");
        release.countDown();
        closer.join();

        for (Future<String> f : bodies) {
            String got = f.get();
            assertTrue(got.startsWith("200 "), got);
            assertTrue(got.contains("last-words") && got.contains("[DONE]"), "stream finished: " + got);
        }
        clients.shutdown();
        assertEquals(STREAMS, Rows.number("SELECT COUNT(*) FROM request_events WHERE outcome = 'success' AND stream"));

        try (App restarted = TestApp.start(gw.clock)) {
            HttpResponse<String> page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + restarted.port() + "/admin/api/requests?limit=100"))
                    .header("Authorization", "Bearer " + TestApp.ADMIN_TOKEN).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(STREAMS, Gateway.read(page.body()).path("items").size(), "20 events after the restart");
        }
    }

    @Test
    void aStreamPausingBetweenFramesAndASlowBufferedAnswerKeepTheirClientsThroughTheDrain() throws Exception {
        gw.account("a", upstream, "[{\"from\":\"m\",\"to\":\"m\"}]", "{\"max_in_flight\":0}");
        gw.key();
        // the upstream's own pace (a model thinking): 2.5 s before each frame and before the buffered body,
        // longer than the 1 s idle timeout Jetty's own graceful shutdown gives every connection
        Duration pause = Duration.ofMillis(2500);
        upstream.handler(r -> r.wantsStream() ? Reply.sse(Bodies.chatStream("slow", " last-words")).frameDelay(pause)
                : Reply.chatCompletion().frameDelay(pause));
        CountDownLatch firstBytes = new CountDownLatch(1);
        ExecutorService clients = Executors.newFixedThreadPool(2);
        String streamBody = "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        Future<String> stream = clients.submit(() -> readStream(streamBody, firstBytes));
        assertTrue(firstBytes.await(30, TimeUnit.SECONDS), "the stream is open at the client");
        Future<HttpResponse<String>> buffered = clients.submit(() -> gw.chat("m"));
        upstream.awaitRequests(2);

        gw.app.close(); // grace 30 s: both finish well within it

        String got = stream.get(30, TimeUnit.SECONDS);
        assertTrue(got.startsWith("200 ") && got.contains("last-words") && got.contains("data: [DONE]"),
                "the stream ends with its terminal marker: " + got);
        HttpResponse<String> answer = buffered.get(30, TimeUnit.SECONDS);
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(answer.body().contains(Bodies.DEFAULT_TEXT), answer.body());
        clients.shutdown();
        assertEquals(2, Rows.number("SELECT COUNT(*) FROM request_events WHERE outcome = 'success'"),
                "both logged as the successes they were");
    }

    @Test
    void aStreamStillOpenWhenTheGraceEndsReachesItsClientBrokenIsLoggedAndCoolsNoAccount() throws Exception {
        gw.close(); // this case needs a short grace
        gw = Gateway.start(c -> Configs.withShutdownGrace(Duration.ofSeconds(1)));
        gw.account("a", upstream, "[{\"from\":\"m\",\"to\":\"m\"}]", null);
        gw.key();
        upstream.handler(r -> Reply.stallAfterFirstFrame(Bodies.chatStream("first", " never-sent"))); // never released
        CountDownLatch firstBytes = new CountDownLatch(1);
        ExecutorService client = Executors.newSingleThreadExecutor();
        String body = "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        Future<String> stream = client.submit(() -> readStream(body, firstBytes));
        assertTrue(firstBytes.await(30, TimeUnit.SECONDS), "the stream is open at the client");

        gw.app.close(); // the grace ends with the stream still open

        String got = stream.get(30, TimeUnit.SECONDS);
        client.shutdown();
        assertTrue(got.startsWith("200 ") && got.endsWith("BROKEN") && !got.contains("[DONE]"),
                "the client sees the stream broken off, without a terminal marker: " + got);
        assertEquals(1, Rows.number("SELECT COUNT(*) FROM request_events WHERE outcome = 'failure' AND stream "
                + "AND error_code = 'stream.truncated'"), "logged as the broken stream it was");
        // D-3: Detour cut the exchange itself; the account did nothing wrong
        assertEquals(0, Rows.number("SELECT COUNT(*) FROM accounts WHERE transient_failure_count > 0 "
                + "OR cooldown_until IS NOT NULL OR last_failure_kind IS NOT NULL"), "no account failure recorded");
        assertEquals(0, Rows.number("SELECT COUNT(*) FROM account_models WHERE transient_failure_count > 0 "
                + "OR cooldown_until IS NOT NULL OR last_failure_kind IS NOT NULL"), "no model failure recorded");
    }

    /** The status, then everything the stream delivered, then {@code BROKEN} when its body broke. */
    private String readStream(String body, CountDownLatch firstBytes) throws Exception {
        HttpResponse<InputStream> response = gw.postStreaming("/v1/chat/completions", body);
        StringBuilder got = new StringBuilder(response.statusCode() + " ");
        try (InputStream in = response.body()) {
            byte[] buffer = new byte[4096];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                got.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                firstBytes.countDown();
            }
        } catch (IOException e) {
            got.append("BROKEN");
        }
        return got.toString();
    }
}
