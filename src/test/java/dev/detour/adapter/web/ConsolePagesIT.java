package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.App;
import dev.detour.testkit.MutableClock;
import dev.detour.testkit.TestApp;
import dev.detour.testkit.TestDatabase;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import org.htmlunit.NicelyResynchronizingAjaxController;
import org.htmlunit.Page;
import org.htmlunit.WebClient;
import org.htmlunit.WebRequest;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.HtmlAnchor;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** U-1 console shell: language, navigation, accounts table, assets and an htmx swap (HtmlUnit). */
class ConsolePagesIT {
    private final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    private App app;
    private String base;
    private WebClient web;

    @BeforeEach
    void startApp() {
        TestDatabase.clean();
        app = TestApp.start(clock);
        base = "http://127.0.0.1:" + app.port();
        web = ConsolePages.browser(false);
    }

    @AfterEach
    void stopApp() {
        web.close();
        app.close();
    }

    @Test
    void languageSwitchChangesThePageTextAndIsRemembered() throws Exception {
        HtmlPage home = ConsolePages.signIn(web, base);
        assertEquals("Dashboard", home.querySelector("main h1").getTextContent());

        HtmlPage zh = home.getAnchorByText("中文").click();
        assertEquals("/", ConsolePages.path(zh));
        assertEquals("仪表盘", zh.querySelector("main h1").getTextContent());
        assertEquals("zh", web.getCookieManager().getCookie("detour_lang").getValue());
        assertEquals("zh-CN", zh.getDocumentElement().getAttribute("lang"));

        HtmlPage accounts = web.getPage(base + "/accounts");
        assertEquals("账号", accounts.querySelector("main h1").getTextContent());
        assertTrue(accounts.asNormalizedText().contains("还没有账号。"));

        HtmlPage en = accounts.getAnchorByText("English").click();
        assertEquals("/accounts", ConsolePages.path(en));
        assertEquals("Accounts", en.querySelector("main h1").getTextContent());
    }

    @Test
    void acceptLanguageZhMakesChineseTheDefault() throws Exception {
        web.addRequestHeader("Accept-Language", "zh-CN,zh;q=0.9,en;q=0.8");
        HtmlPage login = web.getPage(base + "/login");
        assertEquals("登录 Detour", login.querySelector("form.login h1").getTextContent());
        HtmlPage wrong = ConsolePages.submitLogin(login, "admin", "wrong-password");
        assertEquals("用户名或密码错误。", wrong.getElementById("login-error").getTextContent());

        HtmlPage english = wrong.getAnchorByText("English").click();
        assertEquals("Sign in to Detour", english.querySelector("form.login h1").getTextContent());
    }

    @Test
    void navigationLinksBuiltScreensAndMarksTheRestAsComingSoon() throws Exception {
        HtmlPage home = ConsolePages.signIn(web, base);
        List<String> links = home.querySelectorAll("nav.nav a").stream().map(n -> n.getTextContent()).toList();
        List<String> soon = home.querySelectorAll("nav.nav span.soon").stream().map(n -> n.getTextContent()).toList();
        assertEquals(List.of("Dashboard", "Accounts", "Groups", "Keys", "Requests", "Recovery", "Audit", "Settings",
                "Instances", "Alerts"),
                links);
        assertEquals(List.of(), soon);
        HtmlPage accounts = home.getAnchorByText("Accounts").click();
        assertEquals("page", ((DomElement) accounts.querySelector("nav.nav a.active")).getAttribute("aria-current"));
    }

    @Test
    void accountsPageListsTheAccountsTableWithoutArchivedOnes() throws Exception {
        ConsolePages.insertAccount("relay-b", "cheap", 5, true, "error", false);
        ConsolePages.insertAccount("relay-a", "cheap", 0, false, "paused", false);
        ConsolePages.insertAccount("old-relay", "cheap", 0, true, "ok", true);
        ConsolePages.signIn(web, base);
        HtmlPage page = web.getPage(base + "/accounts");

        List<String> rows = page.querySelectorAll("#account-rows tr").stream()
                .map(r -> r.asNormalizedText().replaceAll("\\s+", " ")).toList();
        assertEquals(2, rows.size(), rows.toString());
        assertEquals("relay-a cheap openai-compatible 0 10 0 / ∞ — — Paused Disabled", rows.get(0));
        assertEquals("relay-b cheap openai-compatible 5 10 0 / ∞ — — Error", rows.get(1));
    }

    @Test
    void htmxRequestGetsOnlyTheNamedFragment() throws Exception {
        ConsolePages.insertAccount("relay-a", "cheap", 0, true, "ok", false);
        ConsolePages.signIn(web, base);
        WebRequest request = new WebRequest(new URL(base + "/accounts"));
        request.setAdditionalHeader("HX-Request", "true");
        String body = web.getPage(request).getWebResponse().getContentAsString().strip();
        assertTrue(body.startsWith("<tbody id=\"account-rows\""), body);
        assertTrue(body.contains("relay-a"));
        assertFalse(body.contains("<html"));
    }

    @Test
    void htmxIsServedFromTheWebjar() throws Exception {
        Page js = web.getPage(base + "/assets/htmx.min.js");
        assertEquals(200, js.getWebResponse().getStatusCode());
        assertTrue(js.getWebResponse().getContentType().contains("javascript"));
        assertTrue(js.getWebResponse().getContentAsString().contains("1.9.12"));
        assertEquals(200, web.getPage(base + "/assets/console.css").getWebResponse().getStatusCode());
        assertEquals(404, web.getPage(base + "/assets/dev/detour/App.class").getWebResponse().getStatusCode());
        assertEquals(404, web.getPage(base + "/assets/").getWebResponse().getStatusCode());
    }

    @Test
    void dashboardSummaryRefreshesInPlaceWithHtmx() throws Exception {
        try (WebClient js = ConsolePages.browser(true)) {
            js.setAjaxController(new NicelyResynchronizingAjaxController());
            HtmlPage home = ConsolePages.signIn(js, base);
            DomElement summary = home.getElementById("dashboard-summary");
            assertEquals("No accounts, 0 enabled", text(home, ".summary-accounts"));

            ConsolePages.insertAccount("relay-a", "cheap", 0, true, "ok", false);
            clock.advance(Duration.ofMinutes(5));
            HtmlAnchor refresh = (HtmlAnchor) home.getElementById("dashboard-refresh");
            HtmlPage after = refresh.click(); // the ajax controller makes the htmx request synchronous

            assertSame(home, after, "htmx swapped the fragment instead of loading a page");
            assertSame(home, js.getCurrentWindow().getEnclosedPage());
            assertEquals("1 account, 1 enabled", text(home, ".summary-accounts"));
            assertTrue(home.getElementById("dashboard-summary").asNormalizedText().contains("2026-11-29T10:05:00Z"));
            assertNotEquals(summary, home.getElementById("dashboard-summary"), "outerHTML swap replaced the card");
        }
    }

    private static String text(HtmlPage page, String selector) {
        return page.querySelector(selector).getTextContent();
    }
}
