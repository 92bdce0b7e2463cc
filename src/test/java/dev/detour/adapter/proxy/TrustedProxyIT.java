package dev.detour.adapter.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.App;
import dev.detour.testkit.Configs;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.TestApp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** O-3 end to end: the event's client IP and the session cookie's Secure flag behind a proxy. */
class TrustedProxyIT {
    private final HttpClient http = HttpClient.newHttpClient();
    private Gateway gw;
    private FakeUpstream upstream;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        upstream = FakeUpstream.start();
        gw.account("a", upstream, "[{\"from\":\"m\",\"to\":\"m\"}]", null);
        gw.key(); // before the second App starts, so its snapshot has the key
    }

    @AfterEach
    void stop() {
        gw.close();
        upstream.close();
    }

    private String clientIpOfOneRequest(App app) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port()
                        + "/v1/chat/completions")).header("Authorization", "Bearer " + gw.key())
                .header("X-Forwarded-For", "198.51.100.23").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"messages\":[]}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        String id = r.headers().firstValue("x-detour-request-id").orElseThrow();
        Gateway.await(() -> gw.event(id).has("client_ip"), "event " + id);
        JsonNode event = gw.event(id);
        return event.path("client_ip").asText();
    }

    private String loginCookie(App app, boolean forwardedHttps) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/login"));
        if (forwardedHttps) {
            b.header("X-Forwarded-Proto", "https");
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return r.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("DETOUR_SESSION=")).findFirst()
                .orElseThrow(() -> new AssertionError(r.statusCode() + " " + r.body()));
    }

    @Test
    void anUntrustedPeersForwardedHeadersAreIgnored() throws Exception {
        try (App app = TestApp.start(Configs.withTrustedProxies(List.of("10.0.0.0/8")), gw.clock)) {
            assertEquals("127.0.0.1", clientIpOfOneRequest(app));
            assertFalse(loginCookie(app, true).toLowerCase().contains("secure"));
        }
    }

    @Test
    void aTrustedPeersForwardedForIsTheClientAndHttpsMakesCookiesSecure() throws Exception {
        try (App app = TestApp.start(Configs.withTrustedProxies(List.of("127.0.0.0/8")), gw.clock)) {
            assertEquals("198.51.100.23", clientIpOfOneRequest(app));
            assertTrue(loginCookie(app, true).toLowerCase().contains("secure"));
            assertFalse(loginCookie(app, false).toLowerCase().contains("secure"));
        }
    }

    @Test
    void withNoTrustedProxiesTheDefaultAppUsesThePeer() throws Exception {
        assertEquals("127.0.0.1", clientIpOfOneRequest(gw.app));
    }
}
