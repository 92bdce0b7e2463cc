package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.App;
import dev.detour.testkit.MutableClock;
import dev.detour.testkit.TestApp;
import dev.detour.testkit.TestDatabase;
import java.net.URL;
import java.util.List;
import org.htmlunit.HttpMethod;
import org.htmlunit.Page;
import org.htmlunit.WebClient;
import org.htmlunit.WebRequest;
import org.htmlunit.html.HtmlPage;
import org.htmlunit.util.Cookie;
import org.htmlunit.util.NameValuePair;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** U-1 sign-in, session and CSRF, driven through the real App with HtmlUnit (JavaScript off). */
class ConsoleSignInIT {
    private App app;
    private String base;
    private WebClient web;

    @BeforeEach
    void startApp() {
        TestDatabase.clean(); // also empties admin_users: the App start below creates the first admin again
        app = TestApp.start(MutableClock.at("2026-11-29T10:00:00Z"));
        base = "http://127.0.0.1:" + app.port();
        web = ConsolePages.browser(false);
    }

    @AfterEach
    void stopApp() {
        web.close();
        app.close();
    }

    @Test
    void signInWithTheConfiguredPasswordLandsOnTheDashboard() throws Exception {
        HtmlPage page = ConsolePages.signIn(web, base);
        assertEquals("/", ConsolePages.path(page));
        assertEquals("Dashboard", page.querySelector("main h1").getTextContent());
        assertTrue(page.asNormalizedText().contains("Signed in as admin"));
    }

    @Test
    void wrongPasswordShowsAGenericErrorAndSignsNobodyIn() throws Exception {
        HtmlPage page = ConsolePages.signIn(web, base, "not-the-password");
        assertEquals("/login", page.getUrl().getPath());
        assertEquals("Wrong username or password.", page.getElementById("login-error").getTextContent());
        HtmlPage unknownUser = ConsolePages.submitLogin(page, "nobody", "whatever-pass");
        assertEquals("Wrong username or password.", unknownUser.getElementById("login-error").getTextContent());

        HtmlPage home = web.getPage(base + "/");
        assertEquals("/login", home.getUrl().getPath());
    }

    @Test
    void repeatedFailuresAreThrottledEvenForTheRightPassword() throws Exception {
        HtmlPage page = web.getPage(base + "/login");
        for (int i = 0; i < 5; i++) {
            page = ConsolePages.submitLogin(page, "admin", "wrong-" + i);
        }
        HtmlPage refused = ConsolePages.submitLogin(page, "admin", TestApp.ADMIN_PASSWORD);
        assertEquals(429, refused.getWebResponse().getStatusCode());
        assertTrue(refused.getElementById("login-error").getTextContent().startsWith("Too many failed sign-ins"));
    }

    @Test
    void sessionIdChangesAtSignInAndTheOldIdIsWorthless() throws Exception {
        web.getPage(base + "/login");
        String before = web.getCookieManager().getCookie("DETOUR_SESSION").getValue();
        ConsolePages.signIn(web, base);
        String after = web.getCookieManager().getCookie("DETOUR_SESSION").getValue();
        assertNotEquals(before, after);

        try (WebClient attacker = ConsolePages.browser(false)) {
            attacker.getCookieManager().addCookie(new Cookie("127.0.0.1", "DETOUR_SESSION", before));
            HtmlPage page = attacker.getPage(base + "/");
            assertEquals("/login", page.getUrl().getPath());
        }
    }

    @Test
    void sessionCookieIsHttpOnlyAndSameSiteLax() throws Exception {
        HtmlPage login = web.getPage(base + "/login");
        String setCookie = login.getWebResponse().getResponseHeaders().stream()
                .filter(h -> h.getName().equalsIgnoreCase("Set-Cookie") && h.getValue().startsWith("DETOUR_SESSION="))
                .map(NameValuePair::getValue).findFirst().orElseThrow();
        assertTrue(setCookie.contains("HttpOnly"), setCookie);
        assertTrue(setCookie.contains("SameSite=Lax"), setCookie);
        assertFalse(setCookie.contains("Secure"), "plain http must not get a Secure cookie: " + setCookie);

        ConsolePages.signIn(web, base);
        Cookie session = web.getCookieManager().getCookie("DETOUR_SESSION");
        assertTrue(session.isHttpOnly());
        assertEquals("lax", session.getSameSite().toLowerCase());
    }

    @Test
    void postWithoutTheCsrfTokenIsRefusedAndWithItSucceeds() throws Exception {
        HtmlPage home = ConsolePages.signIn(web, base);
        String token = home.querySelector("form.signout input[name=_csrf]").getAttributes().getNamedItem("value").getNodeValue();
        assertEquals("{\"X-CSRF-Token\":\"" + token + "\"}", home.getBody().getAttribute("hx-headers"));

        Page refused = web.getPage(new WebRequest(new URL(base + "/logout"), HttpMethod.POST));
        assertEquals(403, refused.getWebResponse().getStatusCode());
        assertTrue(refused.getWebResponse().getContentAsString().contains("did not carry a valid security token"));

        WebRequest wrong = new WebRequest(new URL(base + "/logout"), HttpMethod.POST);
        wrong.setAdditionalHeader("X-CSRF-Token", token + "x");
        assertEquals(403, web.getPage(wrong).getWebResponse().getStatusCode());
        assertEquals("/", ConsolePages.path(web.getPage(base + "/")), "refused posts left the session alone");

        WebRequest withHeader = new WebRequest(new URL(base + "/logout"), HttpMethod.POST);
        withHeader.setAdditionalHeader("X-CSRF-Token", token);
        HtmlPage signedOut = web.getPage(withHeader);
        assertEquals(200, signedOut.getWebResponse().getStatusCode());
        assertEquals("/login", signedOut.getUrl().getPath());
        assertEquals("/login", ((HtmlPage) web.getPage(base + "/")).getUrl().getPath());
    }

    @Test
    void theSignOutFormCarriesTheTokenAsAFormField() throws Exception {
        HtmlPage home = ConsolePages.signIn(web, base);
        HtmlPage login = ((org.htmlunit.html.HtmlElement) home.querySelector("form.signout button")).click();
        assertEquals("/login", login.getUrl().getPath());
        HtmlPage again = web.getPage(base + "/accounts");
        assertEquals("/login", again.getUrl().getPath());
    }

    @Test
    void signInFormWithoutItsPreSessionTokenIsRefused() throws Exception {
        WebRequest post = new WebRequest(new URL(base + "/login"), HttpMethod.POST);
        post.setRequestParameters(List.of(new NameValuePair("username", "admin"),
                new NameValuePair("password", TestApp.ADMIN_PASSWORD)));
        Page refused = web.getPage(post);
        assertEquals(403, refused.getWebResponse().getStatusCode());
        assertTrue(refused.getWebResponse().getContentAsString().contains("sign-in form has expired"));
    }

    @Test
    void unauthenticatedPageRedirectsToSignInAndComesBackAfterwards() throws Exception {
        HtmlPage login = web.getPage(base + "/accounts");
        assertEquals("/login?next=%2Faccounts", ConsolePages.path(login));
        HtmlPage accounts = ConsolePages.submitLogin(login, "admin", TestApp.ADMIN_PASSWORD);
        assertEquals("/accounts", ConsolePages.path(accounts));
    }

    @Test
    void anAbsoluteNextIsIgnoredAfterSignIn() throws Exception {
        HtmlPage login = web.getPage(base + "/login?next=https://evil.example/");
        HtmlPage landed = ConsolePages.submitLogin(login, "admin", TestApp.ADMIN_PASSWORD);
        assertEquals(base + "/", landed.getUrl().toString());
    }

    @Test
    void htmxRequestWithoutSessionGetsAnHxRedirect() throws Exception {
        WebRequest request = new WebRequest(new URL(base + "/accounts"));
        request.setAdditionalHeader("HX-Request", "true");
        Page page = web.getPage(request);
        assertEquals(401, page.getWebResponse().getStatusCode());
        assertEquals("/login?next=%2Faccounts", page.getWebResponse().getResponseHeaderValue("HX-Redirect"));
    }

    @Test
    void consolePagesForbidFramingAndCaching() throws Exception {
        HtmlPage home = ConsolePages.signIn(web, base);
        assertEquals("DENY", home.getWebResponse().getResponseHeaderValue("X-Frame-Options"));
        assertEquals("no-store", home.getWebResponse().getResponseHeaderValue("Cache-Control"));
        assertNotNull(home.getWebResponse().getResponseHeaderValue("Content-Security-Policy"));
    }
}
