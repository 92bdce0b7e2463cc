package dev.detour.adapter.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.detour.fake.Bodies;
import dev.detour.fake.Reply;
import dev.detour.server.JettyServer;
import dev.detour.testkit.OneUpstreamCase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jetty.util.VirtualThreads;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * N-7 through the whole gateway: a request that asks for a stream is routed and waits for its first frame at normal
 * priority, not only once its frames flow; a buffered one stays at its server's lowered priority (the event writer's
 * share, session 43) — also on a connection a stream used just before. On the front, and on Jetty (a body of unknown
 * length, sent chunked, is Jetty's to read).
 */
class StreamPriorityIT extends OneUpstreamCase {
    private static final String STREAM = "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\","
            + "\"content\":\"hi\"}]}";
    private static final String BUFFERED = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    @BeforeEach
    void oneAccount() {
        gw.account("a", upstream, "[{\"from\":\"m\",\"to\":\"m\"}]", "{\"max_in_flight\":0}");
    }

    private final HttpClient http1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void onTheFrontAStreamWaitsForItsFirstFrameAtNormalPriorityAndABufferedRequestAtTheLowest() throws Exception {
        assertEquals(Thread.NORM_PRIORITY, priorityWhileTheUpstreamHolds(STREAM, true), "a stream, first frame");
        // the front's connection threads are platform ones at the lowest priority on every JDK (the first 8)
        assertEquals(JettyServer.PLATFORM_REQUEST_THREAD_PRIORITY, priorityWhileTheUpstreamHolds(BUFFERED, true),
                "a buffered request on the connection the stream used");
    }

    @Test
    void onJettyAStreamWaitsForItsFirstFrameAtNormalPriorityAndABufferedRequestAtTheLowest() throws Exception {
        assumeFalse(VirtualThreads.areSupported(), "Jetty's request threads are virtual on 21+: always normal");
        assertEquals(Thread.NORM_PRIORITY, priorityWhileTheUpstreamHolds(STREAM, false), "a stream, first frame");
        assertEquals(JettyServer.PLATFORM_REQUEST_THREAD_PRIORITY, priorityWhileTheUpstreamHolds(BUFFERED, false),
                "a buffered request");
    }

    /** The priority of the thread relaying {@code body} while the upstream holds its answer's head. */
    private int priorityWhileTheUpstreamHolds(String body, boolean lengthStated) throws Exception {
        String key = gw.key();
        CountDownLatch release = new CountDownLatch(1);
        Reply reply = body.equals(STREAM) ? Reply.sse(Bodies.chatStream("hi")) : Reply.chatCompletion();
        upstream.handler(r -> reply.holdAt(Reply.BEFORE_HEADERS).releasedBy(release));
        int before = upstream.requestCount();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gw.app.port()
                + "/v1/chat/completions")).header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json").POST(lengthStated ? HttpRequest.BodyPublishers.ofString(body)
                        : HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofString(body))).build();
        CompletableFuture<HttpResponse<String>> answer = http1.sendAsync(request, HttpResponse.BodyHandlers.ofString());
        upstream.awaitRequests(before + 1);
        List<Integer> priorities = new ArrayList<>();
        for (Map.Entry<Thread, StackTraceElement[]> thread : Thread.getAllStackTraces().entrySet()) {
            if (relaying(thread.getValue())) {
                priorities.add(thread.getKey().getPriority());
            }
        }
        release.countDown();
        assertEquals(200, answer.get().statusCode());
        assertEquals(1, priorities.size(), "one thread relays: " + priorities);
        return priorities.get(0);
    }

    private static boolean relaying(StackTraceElement[] stack) {
        for (StackTraceElement frame : stack) {
            if (frame.getClassName().equals(Relay.class.getName())) {
                return true;
            }
        }
        return false;
    }
}
