package dev.detour.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.App;
import dev.detour.testkit.MutableClock;
import dev.detour.testkit.TestApp;
import dev.detour.testkit.TestDatabase;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * X-2 over real HTTP: every endpoint that redirects to a caller-chosen target (sign-in while
 * signed in, sign-in, the language switch by GET and POST, the console gate's way to sign-in)
 * sends every payload of the table to a Location on this origin, or to none.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedirectsIT {
    private App app;
    private int port;
    private String base;
    private String signedIn;

    @BeforeAll
    void start() throws IOException {
        TestDatabase.clean();
        app = TestApp.start(MutableClock.at("2026-12-01T10:00:00Z"));
        port = app.port();
        base = "http://127.0.0.1:" + port;
        signedIn = signIn("/").cookie("DETOUR_SESSION").orElseThrow();
    }

    @AfterAll
    void stop() {
        app.close();
    }

    static Stream<String> payloads() {
        return Stream.concat(RedirectPayloads.OFF_ORIGIN.stream(), RedirectPayloads.SAME_ORIGIN.stream());
    }

    @ParameterizedTest
    @MethodSource("payloads")
    void signInPageWhileSignedInStaysOnTheOrigin(String next) throws IOException {
        RawHttp.Answer answer = RawHttp.get(port, "/login?next=" + encode(next), "Cookie: DETOUR_SESSION=" + signedIn);
        assertEquals(303, answer.status());
        assertStaysOn(next, answer);
    }

    @ParameterizedTest
    @MethodSource("payloads")
    void signingInStaysOnTheOrigin(String next) throws IOException {
        RawHttp.Answer answer = signIn(next);
        assertEquals(303, answer.status(), answer.body());
        assertStaysOn(next, answer);
    }

    @ParameterizedTest
    @MethodSource("payloads")
    void languageSwitchStaysOnTheOriginByGetAndPost(String next) throws IOException {
        assertStaysOn(next, RawHttp.get(port, "/lang?l=en&next=" + encode(next)));
        assertStaysOn(next, RawHttp.postForm(port, "/lang", RawHttp.form("l", "zh", "next", next)));
    }

    @ParameterizedTest
    @MethodSource("payloads")
    void theConsoleGateSendsToASignInThatStaysOnTheOrigin(String target) throws IOException {
        if (target.chars().anyMatch(c -> c <= 0x20 || c >= 0x7f)) {
            target = encode(target); // not sendable raw in a request line
        }
        RawHttp.Answer answer = RawHttp.get(port, target);
        assertStaysOn(target, answer);
        String location = answer.header("Location").orElse("");
        int next = location.indexOf("next=");
        if (next >= 0) {
            String inner = URLDecoder.decode(location.substring(next + 5), StandardCharsets.UTF_8);
            assertTrue(RedirectPayloads.staysOn(base, inner), target + " -> next " + inner);
        }
    }

    private RawHttp.Answer signIn(String next) throws IOException {
        return RawHttp.signIn(port, next);
    }

    private void assertStaysOn(String payload, RawHttp.Answer answer) {
        List<String> locations = answer.all("Location");
        for (String location : locations) {
            assertTrue(RedirectPayloads.staysOn(base, location), payload + " -> Location " + location);
        }
        answer.header("HX-Redirect").ifPresent(l -> assertTrue(RedirectPayloads.staysOn(base, l), payload + " -> " + l));
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
