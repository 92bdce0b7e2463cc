package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.fake.Reply;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** P-4, F-7: a stalled upstream becomes a transport failure naming its ceiling; refused is account-scoped. */
class TransportFailureIT {
    private static final String MAPS = "[{\"from\":\"m\",\"to\":\"upstream-m\"}]";
    private static final String A = "{\"priority\":0,\"failure_policy\":{\"retry_count\":0,\"cooldown_enabled\":true,"
            + "\"cooldown_seconds\":30}}";
    private Gateway gw;
    private FakeUpstream a;
    private FakeUpstream b;

    @AfterEach
    void stop() {
        gw.close();
        a.close();
        b.close();
    }

    @Test
    void aStalledUpstreamTimesOutByTheConfiguredReadGapAndTheRequestSwitches() {
        gw = Gateway.start(c -> c.withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(1)));
        a = FakeUpstream.start();
        b = FakeUpstream.start();
        long idA = gw.account("a", a, MAPS, A);
        gw.account("b", b, MAPS, "{\"priority\":1}");
        a.enqueue(Reply.stallAfterHeaders());
        HttpResponse<String> response = gw.chat("m");
        assertEquals(200, response.statusCode());
        JsonNode state = gw.accountState(idA);
        assertEquals("transport", state.path("last_failure_kind").asText());
        assertTrue(state.path("last_failure_message").asText().contains("read timeout"),
                state.path("last_failure_message").asText());
        assertEquals(30, state.path("cooldown_remaining_s").asInt(), "transport failures park the account");
        JsonNode attempt = gw.events(1).get(0).path("attempts").get(0);
        assertEquals("transport", attempt.path("failure_kind").asText());
        assertEquals("account", attempt.path("scope").asText());
    }

    @Test
    void aRefusedConnectionIsAnAccountScopedTransportFailure() throws Exception {
        gw = Gateway.start();
        a = FakeUpstream.start();
        b = FakeUpstream.start();
        int deadPort;
        try (ServerSocket s = new ServerSocket(0)) {
            deadPort = s.getLocalPort();
        }
        long idDead = gw.account("dead", a, MAPS, A);
        gw.admin("PUT", "/accounts/" + idDead, "{\"base_url\":\"http://127.0.0.1:" + deadPort + "\"}");
        gw.account("b", b, MAPS, "{\"priority\":1}");
        assertEquals(200, gw.chat("m").statusCode());
        JsonNode state = gw.accountState(idDead);
        assertEquals("transport", state.path("last_failure_kind").asText());
        assertEquals(30, state.path("cooldown_remaining_s").asInt());
        assertEquals(0, state.path("models").size(), "account scope: no model row");
        // while it cools, the next request goes straight to b
        assertEquals(200, gw.chat("m").statusCode());
        assertEquals(2, b.requestCount());
        JsonNode second = gw.events(2).get(1);
        assertEquals("rejected_cooling", second.path("rejections").get(0).path("reason").asText());
    }
}
