package dev.detour.adapter.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.fake.FakeUpstream;
import dev.detour.fake.Reply;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.SystemProperty;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * N-7 through the whole gateway: while a stream relayed by the front waits for its upstream's next frame, its thread
 * sleeps in the stream pump (no thread wakes per frame), and the frames that follow reach the client whole.
 */
@Timeout(60) // a hang guard only: no assertion here depends on timing
class StreamPumpGatewayIT {
    private static final String STREAM = "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\","
            + "\"content\":\"hi\"}]}";

    private SystemProperty pumpOn;
    private Gateway gw;
    private FakeUpstream upstream;

    @BeforeEach
    void start() {
        pumpOn = SystemProperty.set("detour.streamPump", "true"); // on, whatever the environment says
        gw = Gateway.start();
        upstream = FakeUpstream.start();
        gw.account("a", upstream, "[{\"from\":\"m\",\"to\":\"m\"}]", "{\"max_in_flight\":0}");
    }

    @AfterEach
    void stop() {
        gw.close();
        upstream.close();
        pumpOn.close();
    }

    @Test
    void aStreamWaitingForItsNextFrameSleepsInThePumpAndItsFramesStillArrive() throws Exception {
        String key = gw.key();
        CountDownLatch rest = new CountDownLatch(1);
        upstream.handler(r -> Reply.stallAfterFirstFrame(List.of("first", "second", "third")).releasedBy(rest));
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gw.app.port()
                + "/v1/chat/completions")).header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(STREAM)).build();
        HttpClient http1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<InputStream> answer = http1.send(request, HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, answer.statusCode());
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(answer.body(), StandardCharsets.UTF_8))) {
            assertEquals("data: first", lines.readLine());
            Gateway.await(StreamPumpGatewayIT::aRelayWaitsInThePump, "the relay's thread waits in the pump");
            rest.countDown();
            StringBuilder after = new StringBuilder();
            for (String line; (line = lines.readLine()) != null; ) {
                after.append(line).append('\n');
            }
            assertEquals("\ndata: second\n\ndata: third\n\ndata: [DONE]\n\n", after.toString());
        }
        assertEquals("success", gw.events(1).get(0).path("outcome").asText(), "delivered");
    }

    /** A thread relaying a request (a {@link Relay} frame) is parked in the pump. */
    private static boolean aRelayWaitsInThePump() {
        for (Map.Entry<Thread, StackTraceElement[]> thread : Thread.getAllStackTraces().entrySet()) {
            boolean relaying = false;
            boolean pumped = false;
            for (StackTraceElement frame : thread.getValue()) {
                relaying |= frame.getClassName().equals(Relay.class.getName());
                pumped |= frame.getClassName().equals("dev.detour.adapter.upstream.StreamPump");
            }
            if (relaying && pumped) {
                return true;
            }
        }
        return false;
    }
}
