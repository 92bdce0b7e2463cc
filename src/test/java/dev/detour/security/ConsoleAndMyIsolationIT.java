package dev.detour.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.TestApp;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * X-8's gathering of the U-1 and E-1 checks over real HTTP: CSRF on every state-changing door,
 * session ids that rotate and die, markup from names, models and query strings always escaped,
 * and a key holder's {@code /my} and explanations that show only that key's own requests.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleAndMyIsolationIT {
    private static final String SCRIPT = "<script>alert(1)</script>";
    private static final String IMG = "<img src=x onerror=alert(2)>";

    private Gateway gw;
    private FakeUpstream upstream;
    private int port;
    private String keyA;
    private String keyB;
    private String requestOfA;
    private String requestOfB;

    @BeforeAll
    void start() {
        gw = Gateway.start();
        upstream = FakeUpstream.start();
        port = gw.app.port();
        gw.account(SCRIPT, upstream, "[{\"from\":\"m\",\"to\":\"m\"}]", null);
        keyA = gw.key();
        keyB = gw.admin("POST", "/keys", "{\"name\":\"" + IMG + "\"}").path("key").asText();
        gw.app.snapshot().reload();
        requestOfA = requestId(gw.chat("m"));
        requestOfB = requestId(gw.send(HttpRequest.newBuilder(URI.create(gw.base() + "/v1/chat/completions"))
                .header("Authorization", "Bearer " + keyB).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"b-private-model\",\"messages\":"
                        + "[{\"role\":\"user\",\"content\":\"hi\"}]}")).build()));
        gw.chat(SCRIPT); // a model name that is markup: refused (no route), but logged and shown
        Gateway.await(() -> gw.events(3).size() >= 3, "three request events");
    }

    @AfterAll
    void stop() {
        gw.close();
        upstream.close();
    }

    @Test
    void everyStateChangingDoorRefusesARequestWithoutItsCsrfToken() throws IOException {
        String session = consoleSession();
        RawHttp.Answer noToken = RawHttp.postForm(port, "/keys", RawHttp.form("name", "forged"),
                "Cookie: DETOUR_SESSION=" + session);
        assertEquals(403, noToken.status());
        RawHttp.Answer wrongToken = RawHttp.postForm(port, "/logout", RawHttp.form("_csrf", "not-the-token"),
                "Cookie: DETOUR_SESSION=" + session);
        assertEquals(403, wrongToken.status());
        // the admin API takes a console session only together with the session's token
        RawHttp.Answer api = RawHttp.send(port, "POST", "/admin/api/keys", "{\"name\":\"forged\"}",
                "Cookie: DETOUR_SESSION=" + session, "Content-Type: application/json");
        assertEquals(401, api.status());
        assertFalse(gw.admin("GET", "/keys", null).toString().contains("forged"), "no key was created");

        String my = mySession(keyA);
        assertEquals(403, RawHttp.postForm(port, "/my/check", RawHttp.form("model", "m"),
                "Cookie: detour_my=" + my).status());
        assertEquals(403, RawHttp.postForm(port, "/my/logout", RawHttp.form("_csrf", "x"),
                "Cookie: detour_my=" + my).status());
        assertEquals(403, RawHttp.postForm(port, "/my/login", RawHttp.form("key", keyA)).status(),
                "the /my sign-in form needs its own token too");
    }

    @Test
    void aSessionIdChangesAtSignInAndIsWorthlessAfterSignOut() throws IOException {
        RawHttp.Answer form = RawHttp.get(port, "/login");
        String anonymous = form.cookie("DETOUR_SESSION").orElseThrow();
        RawHttp.Answer signedIn = RawHttp.postForm(port, "/login", RawHttp.form("_csrf", form.field("_csrf"),
                "username", "admin", "password", TestApp.ADMIN_PASSWORD), "Cookie: DETOUR_SESSION=" + anonymous);
        String session = signedIn.cookie("DETOUR_SESSION").orElseThrow();
        assertNotEquals(anonymous, session);
        assertEquals(303, statusOfAccountsWith(anonymous), "the anonymous id signs nobody in");
        assertEquals(200, statusOfAccountsWith(session));

        RawHttp.Answer page = RawHttp.get(port, "/accounts", "Cookie: DETOUR_SESSION=" + session);
        RawHttp.Answer out = RawHttp.postForm(port, "/logout", RawHttp.form("_csrf", page.field("_csrf")),
                "Cookie: DETOUR_SESSION=" + session);
        assertEquals(303, out.status());
        assertEquals(303, statusOfAccountsWith(session), "the old session id signs nobody in");
    }

    @Test
    void markupInNamesModelsAndQueriesIsEscapedOnEveryPage() throws IOException {
        String session = consoleSession();
        for (String path : new String[] {"/accounts", "/keys", "/requests", "/requests?model=" + encode(SCRIPT),
            "/accounts?q=" + encode(IMG)}) {
            RawHttp.Answer page = RawHttp.get(port, path, "Cookie: DETOUR_SESSION=" + session);
            assertNoRawMarkup(path, page);
        }
        assertNoRawMarkup("/login", RawHttp.get(port, "/login?next=" + encode("/\"><script>alert(3)</script>")));
        String my = mySession(keyA);
        for (String path : new String[] {"/my", "/my?model=" + encode(SCRIPT)}) {
            assertNoRawMarkup(path, RawHttp.get(port, path, "Cookie: detour_my=" + my));
        }
        RawHttp.Answer accounts = RawHttp.get(port, "/accounts", "Cookie: DETOUR_SESSION=" + session);
        assertTrue(accounts.body().contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the name is shown, escaped");
    }

    @Test
    void aKeyHolderSeesOnlyTheirOwnRequestsAndExplanations() throws IOException {
        String pageOfA = RawHttp.get(port, "/my", "Cookie: detour_my=" + mySession(keyA)).body();
        assertTrue(pageOfA.contains(requestOfA), "A's own request is listed");
        assertFalse(pageOfA.contains(requestOfB), "B's request is not");
        assertFalse(pageOfA.contains("b-private-model"), "nor B's model");
        assertFalse(pageOfA.contains(upstream.url()), "no upstream address");
        assertFalse(pageOfA.contains("sk-test-"), "no upstream key");

        assertEquals(200, explain(keyA, requestOfA).status());
        RawHttp.Answer foreign = explain(keyA, requestOfB);
        assertEquals(404, foreign.status(), "another key's request is not found, not forbidden");
        assertFalse(foreign.body().contains("b-private-model"));
        assertEquals(200, explain(keyB, requestOfB).status());
    }

    private RawHttp.Answer explain(String key, String requestId) throws IOException {
        return RawHttp.get(port, "/v1/detour/explain/" + requestId, "Authorization: Bearer " + key);
    }

    private static void assertNoRawMarkup(String path, RawHttp.Answer page) {
        assertEquals(200, page.status(), path);
        String body = page.body();
        assertFalse(body.contains(SCRIPT), path + " echoes a raw script tag");
        assertFalse(body.contains("<script>alert"), path);
        assertFalse(body.contains(IMG), () -> path + " echoes a raw img tag: "
                + body.substring(Math.max(0, body.indexOf(IMG) - 300), Math.min(body.length(), body.indexOf(IMG) + 100)));
        assertFalse(body.contains("<img src=x"), path);
    }

    private int statusOfAccountsWith(String session) throws IOException {
        return RawHttp.get(port, "/accounts", "Cookie: DETOUR_SESSION=" + session).status();
    }

    private String consoleSession() throws IOException {
        return RawHttp.signIn(port, "/").cookie("DETOUR_SESSION").orElseThrow();
    }

    private String mySession(String key) throws IOException {
        RawHttp.Answer form = RawHttp.get(port, "/my");
        String csrf = form.cookie("detour_my_csrf").orElseThrow();
        RawHttp.Answer in = RawHttp.postForm(port, "/my/login", RawHttp.form("_csrf", csrf, "key", key),
                "Cookie: detour_my_csrf=" + csrf);
        return in.cookie("detour_my").orElseThrow(() -> new AssertionError(in.status() + " " + in.body()));
    }

    private static String requestId(HttpResponse<String> response) {
        return response.headers().firstValue("x-detour-request-id").orElseThrow();
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
