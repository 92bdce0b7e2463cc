package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.App;
import dev.detour.config.DetourConfig;
import dev.detour.testkit.Configs;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.TestApp;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.htmlunit.WebClient;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * X-3 over real HTTP: wrong passwords, admin tokens and Detour keys slow down the client address
 * that sent them (429 + Retry-After, growing), never anyone else. Detour sits "behind nginx":
 * DETOUR_TRUSTED_PROXIES=127.0.0.1 and each simulated client has its own X-Forwarded-For.
 */
class AuthThrottleIT {
    private static final String ATTACKER = "203.0.113.7";
    private static final String OWNER = "198.51.100.10";
    private Gateway gw;
    private FakeUpstream upstream;

    private void start(List<String> trustedProxies) {
        gw = Gateway.start(c -> Configs.withTrustedProxies(trustedProxies));
    }

    private void behindNginx() {
        start(List.of("127.0.0.1"));
    }

    @AfterEach
    void stop() {
        if (gw != null) {
            gw.close();
        }
        if (upstream != null) {
            upstream.close();
        }
    }

    // ---- console sign-in ----

    private static WebClient browserAt(String clientIp) {
        WebClient web = ConsolePages.browser(false);
        web.addRequestHeader("X-Forwarded-For", clientIp);
        return web;
    }

    private HtmlPage signIn(WebClient web, String username, String password) throws Exception {
        return ConsolePages.submitLogin(web.getPage(gw.base() + "/login"), username, password);
    }

    private static int status(HtmlPage page) {
        return page.getWebResponse().getStatusCode();
    }

    private static String retryAfter(HtmlPage page) {
        return page.getWebResponse().getResponseHeaderValue("Retry-After");
    }

    private static String loginError(HtmlPage page) {
        return page.getElementById("login-error").getTextContent();
    }

    @Test
    void anAttackerIsSlowedWithGrowingWaitsWhileTheOwnerElsewhereSignsInAtOnce() throws Exception {
        behindNginx();
        try (WebClient attacker = browserAt(ATTACKER)) {
            for (int i = 0; i < 5; i++) {
                assertEquals("Wrong username or password.", loginError(signIn(attacker, "admin", "guess-" + i)));
            }
            for (long wait : new long[] {1, 2, 4, 8}) {
                // even the right password is refused unchecked while the wait runs: no oracle
                HtmlPage refused = signIn(attacker, "admin", TestApp.ADMIN_PASSWORD);
                assertEquals(429, status(refused));
                assertEquals(Long.toString(wait), retryAfter(refused));
                assertEquals("Too many failed sign-ins. Try again in " + wait + " s.", loginError(refused));
                gw.clock.advance(Duration.ofSeconds(wait));
                assertEquals(200, status(signIn(attacker, "admin", "guess-after-" + wait)), "waited: checked again");
            }
        }
        // 100 more failures on admin from twenty other addresses
        for (int a = 0; a < 20; a++) {
            try (WebClient attacker = browserAt("203.0.113." + (100 + a))) {
                for (int i = 0; i < 5; i++) {
                    assertEquals(200, status(signIn(attacker, "admin", "guess-" + i)));
                }
            }
        }
        try (WebClient owner = browserAt(OWNER)) {
            HtmlPage home = signIn(owner, "admin", TestApp.ADMIN_PASSWORD);
            assertEquals("/", ConsolePages.path(home), "the owner signs in at once");
            assertTrue(home.asNormalizedText().contains("Signed in as admin"));
        }
    }

    @Test
    void behindNginxOneClientsFailuresDoNotThrottleAnother() throws Exception {
        behindNginx();
        // 25 clients, one wrong guess each: all arrive from nginx's 127.0.0.1 (was: 20 blocked everyone)
        for (int c = 0; c < 25; c++) {
            try (WebClient client = browserAt("192.0.2." + (10 + c))) {
                assertEquals(200, status(signIn(client, "user" + c, "wrong")));
            }
        }
        try (WebClient sprayer = browserAt(ATTACKER)) {
            for (int i = 0; i < 10; i++) {
                assertEquals(200, status(signIn(sprayer, "name" + i, "wrong")));
            }
            HtmlPage slowed = signIn(sprayer, "another-name", "wrong");
            assertEquals(429, status(slowed), "ten failures from one client slow it for every name");
            assertEquals("1", retryAfter(slowed));
        }
        try (WebClient owner = browserAt(OWNER)) {
            HtmlPage typo = signIn(owner, "admin", "typo");
            assertEquals(200, status(typo), "another client's wrong password is simply wrong");
            assertEquals("Wrong username or password.", loginError(typo));
            assertEquals("/", ConsolePages.path(signIn(owner, "admin", TestApp.ADMIN_PASSWORD)));
        }
    }

    @Test
    void anUntrustedPeersForwardedForIsIgnored() throws Exception {
        start(List.of("10.0.0.0/8")); // Detour's peer (127.0.0.1) is not a trusted proxy
        try (WebClient attacker = browserAt(ATTACKER)) {
            for (int i = 0; i < 5; i++) {
                assertEquals(200, status(signIn(attacker, "admin", "guess-" + i)));
            }
            for (String forged : List.of(OWNER, "192.0.2.1", "192.0.2.2")) {
                attacker.addRequestHeader("X-Forwarded-For", forged);
                HtmlPage refused = signIn(attacker, "admin", TestApp.ADMIN_PASSWORD);
                assertEquals(429, status(refused), "a forged X-Forwarded-For " + forged + " escapes nothing");
            }
        }
    }

    // ---- admin token: /admin/api and /metrics ----

    private HttpResponse<String> adminApi(String base, String token, String clientIp) {
        return gw.send(HttpRequest.newBuilder(URI.create(base + "/admin/api/groups"))
                .header("Authorization", "Bearer " + token).header("X-Forwarded-For", clientIp).build());
    }

    private HttpResponse<String> metrics(String base, String token, String clientIp) {
        return gw.send(HttpRequest.newBuilder(URI.create(base + "/metrics"))
                .header("Authorization", "Bearer " + token).header("X-Forwarded-For", clientIp).build());
    }

    private static String errorCode(HttpResponse<String> response) {
        return Gateway.read(response.body()).path("error").path("code").asText();
    }

    private static String retryAfter(HttpResponse<String> response) {
        return response.headers().firstValue("Retry-After").orElse(null);
    }

    @Test
    void wrongAdminTokensSlowTheirAddressAndTheRightTokenElsewhereStillWorks() {
        behindNginx();
        for (int i = 0; i < 10; i++) {
            HttpResponse<String> wrong = adminApi(gw.base(), "wrong-token-" + i + "-0123456789abcdef", ATTACKER);
            assertEquals(401, wrong.statusCode());
            assertEquals("auth.admin_required", errorCode(wrong));
        }
        for (long wait : new long[] {1, 2, 4}) {
            HttpResponse<String> slowed = adminApi(gw.base(), TestApp.ADMIN_TOKEN, ATTACKER);
            assertEquals(429, slowed.statusCode(), "the right token is not even compared");
            assertEquals("auth.throttled", errorCode(slowed));
            assertEquals(Long.toString(wait), retryAfter(slowed));
            gw.clock.advance(Duration.ofSeconds(wait));
            // a new guess each time: a repeated wrong token counts for that token only (failedCredential)
            assertEquals(401, adminApi(gw.base(), "wrong-again-" + wait + "-0123456789abcdef", ATTACKER).statusCode());
        }
        HttpResponse<String> owner = adminApi(gw.base(), TestApp.ADMIN_TOKEN, OWNER);
        assertEquals(200, owner.statusCode());
        assertNull(retryAfter(owner));
    }

    @Test
    void metricsShareTheAdminTokenThrottle() {
        DetourConfig c = Configs.withTrustedProxies(List.of("127.0.0.1"));
        DetourConfig wide = new DetourConfig("0.0.0.0", 0, c.dataDir(), c.dbUrl(), c.dbUser(), c.dbPassword(),
                c.masterKey(), c.adminPassword(), c.adminToken(), c.connectTimeout(), c.readTimeout(),
                c.recoveryTick(), c.trustedProxies(), c.shutdownGrace());
        behindNginx();
        try (App app = TestApp.start(wide, gw.clock)) {
            String base = "http://127.0.0.1:" + app.port();
            for (int i = 0; i < 10; i++) {
                assertEquals(401, metrics(base, "wrong-token-" + i + "-0123456789abcdef", ATTACKER).statusCode());
            }
            HttpResponse<String> slowed = metrics(base, TestApp.ADMIN_TOKEN, ATTACKER);
            assertEquals(429, slowed.statusCode());
            assertEquals("1", retryAfter(slowed));
            assertTrue(slowed.body().startsWith("auth.throttled"), slowed.body());
            assertEquals(429, adminApi(base, TestApp.ADMIN_TOKEN, ATTACKER).statusCode(), "one throttle per token");
            assertEquals(200, metrics(base, TestApp.ADMIN_TOKEN, OWNER).statusCode());
        }
    }

    // ---- Detour keys: /v1, /v1/detour, /my/login ----

    private HttpResponse<String> chat(String path, String key, String clientIp) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gw.base() + path)).header("X-Forwarded-For",
                clientIp).header("Content-Type", "application/json");
        b = path.equals("/v1/messages") ? b.header("x-api-key", key) : b.header("Authorization", "Bearer " + key);
        return gw.send(b.POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"messages\":[{\"role\":"
                + "\"user\",\"content\":\"hi\"}]}")).build());
    }

    private void withAnAccount() {
        upstream = FakeUpstream.start();
        gw.account("a", upstream, "[{\"from\":\"m\",\"to\":\"m\"}]", null);
        gw.key(); // before the first request, so the snapshot has it
    }

    @Test
    void wrongKeysOnV1SlowTheirAddressInTheProtocolsEnvelopeAndAGoodKeyElsewhereIsServed() {
        behindNginx();
        withAnAccount();
        for (int i = 0; i < 10; i++) {
            HttpResponse<String> wrong = chat("/v1/chat/completions", "dtr-guess-" + i, ATTACKER);
            assertEquals(401, wrong.statusCode());
            assertEquals("auth.invalid_key", errorCode(wrong));
        }
        HttpResponse<String> slowed = chat("/v1/chat/completions", gw.key(), ATTACKER);
        assertEquals(429, slowed.statusCode(), "refused before the key lookup, even for a good key");
        assertEquals("auth.throttled", errorCode(slowed));
        assertEquals("1", retryAfter(slowed));
        JsonNode anthropic = Gateway.read(chat("/v1/messages", "dtr-guess", ATTACKER).body());
        assertEquals("error", anthropic.path("type").asText());
        assertEquals("rate_limit_error", anthropic.path("error").path("type").asText());
        assertEquals("auth.throttled", anthropic.path("error").path("code").asText());
        HttpResponse<String> explain = gw.send(HttpRequest.newBuilder(URI.create(gw.base()
                + "/v1/detour/explain/any")).header("Authorization", "Bearer " + gw.key())
                .header("X-Forwarded-For", ATTACKER).build());
        assertEquals(429, explain.statusCode(), "/v1/detour checks keys too");
        assertEquals("auth.throttled", errorCode(explain));

        String id = slowed.headers().firstValue("x-detour-request-id").orElseThrow();
        Gateway.await(() -> gw.event(id).has("client_ip"), "event " + id);
        assertEquals(ATTACKER, gw.event(id).path("client_ip").asText(), "the request log names who was slowed");
        assertEquals("auth.throttled", gw.event(id).path("error_code").asText());

        gw.clock.advance(Duration.ofSeconds(1));
        assertEquals(401, chat("/v1/chat/completions", "dtr-guess-again", ATTACKER).statusCode());
        assertEquals("2", retryAfter(chat("/v1/chat/completions", gw.key(), ATTACKER)), "the wait grows");

        assertEquals(200, chat("/v1/chat/completions", gw.key(), OWNER).statusCode());
        assertEquals(1, upstream.requestCount(), "only the good key from the clean address reached the upstream");
    }

    @Test
    void anAgentStuckOnARevokedKeyDoesNotSlowItsColleaguesBehindTheSameAddress() {
        behindNginx();
        withAnAccount();
        for (int i = 0; i < 40; i++) {
            int status = chat("/v1/chat/completions", "dtr-revoked-key-left-in-an-env-file", ATTACKER).statusCode();
            assertEquals(i < 5 ? 401 : 429, status, "try " + i);
        }
        HttpResponse<String> stale = chat("/v1/chat/completions", "dtr-revoked-key-left-in-an-env-file", ATTACKER);
        assertEquals(429, stale.statusCode(), "the stale key itself is slowed");
        assertEquals(200, chat("/v1/chat/completions", gw.key(), ATTACKER).statusCode(),
                "a colleague's good key from the same address is served");
    }

    private HtmlPage signInToMy(WebClient browser, String key) throws Exception {
        HtmlPage login = browser.getPage(gw.base() + "/my");
        HtmlForm form = login.getHtmlElementById("my-login");
        form.getInputByName("key").setValue(key);
        return form.getOneHtmlElementByAttribute("button", "type", "submit").click();
    }

    @Test
    void wrongKeysOnMyLoginSlowTheirAddressAndTheHolderElsewhereSignsIn() throws Exception {
        behindNginx();
        withAnAccount();
        try (WebClient attacker = browserAt(ATTACKER)) {
            for (int i = 0; i < 10; i++) {
                HtmlPage wrong = signInToMy(attacker, "dtr-guess-" + i);
                assertEquals(401, status(wrong));
                assertNotNull(wrong.getElementById("my-login-error"));
            }
            HtmlPage slowed = signInToMy(attacker, gw.key());
            assertEquals(429, status(slowed));
            assertEquals("1", retryAfter(slowed));
            assertEquals("Too many failed sign-ins from your address. Try again in 1 s.",
                    slowed.getElementById("my-login-error").getTextContent());
            assertNotNull(slowed.getElementById("my-login"), "not signed in");
        }
        assertEquals(429, chat("/v1/chat/completions", gw.key(), ATTACKER).statusCode(),
                "one throttle for Detour keys, wherever they are tried");
        try (WebClient holder = browserAt(OWNER)) {
            HtmlPage my = signInToMy(holder, gw.key());
            assertEquals("/my", ConsolePages.path(my));
            assertNull(my.getElementById("my-login"), "signed in");
        }
    }
}
