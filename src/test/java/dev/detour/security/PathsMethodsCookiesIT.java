package dev.detour.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.testkit.Configs;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.TestApp;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * over real HTTP, on an instance that trusts 127.0.0.1 as its proxy (as behind nginx):
 * ambiguous paths and TRACE refused before routing, Jetty's own error pages carry the security
 * headers, {@code /my} cookies are Secure when the proxy says https.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PathsMethodsCookiesIT {
    private Gateway gw;
    private int port;

    @BeforeAll
    void start() {
        gw = Gateway.start(c -> Configs.withTrustedProxies(List.of("127.0.0.1")));
        port = gw.app.port();
    }

    @AfterAll
    void stop() {
        gw.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/metrics;x", "/metrics;", "/healthz;jsessionid=1", "/admin/api/accounts;x",
        "/v1/models;x", "/accounts;x/../metrics", "/metrics/..;/metrics", "/my;x"})
    void pathParametersAreRefusedBeforeRouting(String target) throws IOException {
        RawHttp.Answer answer = RawHttp.get(port, target);
        assertEquals(400, answer.status(), target + ": " + answer.body());
        assertFalse(answer.body().contains("detour_"), "no metrics text");
        assertProtected(answer);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/v1/%2e%2e/metrics", "/admin/api/%2e%2e/%2e%2e/metrics", "/v1/..%2fmetrics",
        "/v1/models%2f..%2f..%2fmetrics", "/v1/%5c..%5cmetrics", "//metrics", "/v1//models", "/%2e/metrics",
        "/v1/models%00", "/v1/%c0%ae%c0%ae/metrics"})
    void ambiguousPathsAreRefusedBeforeRouting(String target) throws IOException {
        RawHttp.Answer answer = RawHttp.get(port, target);
        assertEquals(400, answer.status(), target + ": " + answer.body());
        assertProtected(answer);
    }

    @Test
    void traceIsRefusedAndEchoesNothing() throws IOException {
        RawHttp.Answer answer = RawHttp.send(port, "TRACE", "/", null, "Cookie: DETOUR_SESSION=secret-session-id",
                "Authorization: Bearer " + TestApp.ADMIN_TOKEN);
        assertEquals(405, answer.status());
        assertFalse(answer.body().contains("secret-session-id"), answer.body());
        assertFalse(answer.body().contains(TestApp.ADMIN_TOKEN), answer.body());
        assertFalse(answer.header("Allow").orElse("").contains("TRACE"));
        assertProtected(answer);
        assertEquals(405, RawHttp.send(port, "TRACE", "/v1/chat/completions", null).status());
    }

    @Test
    void jettysOwnNotFoundPageCarriesTheSecurityHeaders() throws IOException {
        RawHttp.Answer answer = RawHttp.get(port, "/no-such-page/at-all");
        assertEquals(404, answer.status());
        assertProtected(answer);
    }

    @Test
    void myCookiesAreSecureOverHttpsFromATrustedProxyAndNotOverPlainHttp() throws IOException {
        RawHttp.Answer https = RawHttp.get(port, "/my", "X-Forwarded-Proto: https");
        RawHttp.Answer plain = RawHttp.get(port, "/my");
        String csrfHttps = https.setCookieLine("detour_my_csrf").orElseThrow(() -> new AssertionError(https.headers()));
        assertTrue(attributes(csrfHttps).contains("secure"), csrfHttps);
        assertFalse(attributes(plain.setCookieLine("detour_my_csrf").orElseThrow()).contains("secure"));

        String csrf = https.cookie("detour_my_csrf").orElseThrow();
        RawHttp.Answer signedIn = RawHttp.postForm(port, "/my/login", RawHttp.form("_csrf", csrf, "key", gw.key()),
                "Cookie: detour_my_csrf=" + csrf, "X-Forwarded-Proto: https");
        assertEquals(303, signedIn.status(), signedIn.body());
        String session = signedIn.setCookieLine("detour_my").orElseThrow(() -> new AssertionError(signedIn.headers()));
        assertTrue(attributes(session).contains("secure"), session);
        assertTrue(attributes(session).contains("httponly"), session);
    }

    private static String attributes(String setCookie) {
        return setCookie.substring(setCookie.indexOf(';') + 1).toLowerCase(Locale.ROOT);
    }

    private static void assertProtected(RawHttp.Answer answer) {
        assertEquals("nosniff", answer.header("X-Content-Type-Options").orElse(null),
                () -> answer.status() + " " + answer.headers().stream().map(h -> h[0] + ": " + h[1]).toList());
        assertEquals("DENY", answer.header("X-Frame-Options").orElse(null));
        assertTrue(answer.header("Content-Security-Policy").orElse("").contains("frame-ancestors 'none'"));
        assertTrue(answer.header("Cache-Control").orElse("").contains("no-store"));
    }
}
