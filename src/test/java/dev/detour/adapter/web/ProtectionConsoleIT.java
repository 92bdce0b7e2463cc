package dev.detour.adapter.web;

import static dev.detour.adapter.web.AccountsConsoleIT.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.fake.Reply;
import java.time.Duration;
import org.htmlunit.WebClient;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.HtmlButton;
import org.htmlunit.html.HtmlCheckBoxInput;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Load distribution and protection in the console: the C-6 breaker and backoff as their own badges, the S-9 group halt on the groups page. */
class ProtectionConsoleIT {
    private static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"}]";
    private Gateway gw;
    private FakeUpstream a;
    private FakeUpstream b;
    private WebClient web;

    @BeforeEach
    void start() throws Exception {
        gw = Gateway.start();
        a = FakeUpstream.start();
        b = FakeUpstream.start();
        web = ConsolePages.browser(false);
    }

    @AfterEach
    void stop() {
        web.close();
        a.close();
        b.close();
        gw.close();
    }

    @Test
    void anOpenBreakerShowsItsOwnCountdownBadgeThenHalfOpenThenNothingAfterTheTrialSucceeds() throws Exception {
        // cooldown off, the default when this was written (C-1' turned it on): every failure reaches the breaker
        long id = gw.account("relay-a", a, MAPS, "{\"priority\":0,\"failure_policy\":{\"retry_count\":0,"
                + "\"cooldown_enabled\":false},\"breaker\":{\"enabled\":true,\"threshold\":3}}");
        gw.account("relay-b", b, MAPS, "{\"priority\":1}");
        for (int i = 0; i < 3; i++) {
            a.enqueue(Reply.openAiError(500, "upstream broke", "server_error"));
            assertEquals(200, gw.chat("gpt-5.6-sol").statusCode(), "b serves while a fails");
        }
        web.addRequestHeader("Accept-Language", "zh-CN");
        ConsolePages.signIn(web, gw.base());

        DomElement breaker = row(id).querySelector(".badge-breaker");
        assertEquals("熔断 1800 秒", breaker.getTextContent().strip(), "the third failure opens it for 30 min");
        assertEquals("1800", breaker.getAttribute("data-cooldown-seconds"), "counts down in the browser");
        assertEquals("熔断 {0} 秒", breaker.getAttribute("data-label"));

        gw.clock.advance(Duration.ofMinutes(30));
        assertEquals("熔断半开", text(row(id), ".badge-breaker.half-open"));
        assertEquals(1, names("/accounts?problems=on"), "an open or half-open breaker is a problem");

        assertEquals(200, gw.chat("gpt-5.6-sol").statusCode()); // the half-open trial goes to a and succeeds
        assertEquals(4, a.requestCount());
        assertNull(row(id).querySelector(".badge-breaker"), "a success resets the breaker");
    }

    @Test
    void theExponentialBackoffShowsItsStepNextToTheCooldownBadgeInEnglish() throws Exception {
        long id = gw.account("relay-a", a, MAPS, "{\"priority\":0,\"failure_policy\":{\"retry_count\":0},"
                + "\"backoff\":{\"mode\":\"exponential\",\"base_seconds\":600,\"cap_seconds\":7200}}");
        gw.account("relay-b", b, MAPS, "{\"priority\":1}");
        a.close(); // connection refused: an account-scoped failure
        assertEquals(200, gw.chat("gpt-5.6-sol").statusCode());
        ConsolePages.signIn(web, gw.base());

        DomElement row = row(id);
        assertEquals("Backoff step 1", text(row, ".badge-backoff"));
        assertEquals("Cooling 600s", text(row, ".badge-cooldown"), "base × 2^0");
        assertNull(row.querySelector(".badge-breaker"), "the breaker is off");
    }

    @Test
    void aHaltedGroupShowsItsTimeRemainingAndReasonOnTheGroupsPageUntilASuccessClearsIt() throws Exception {
        web.addRequestHeader("Accept-Language", "zh-CN");
        ConsolePages.signIn(web, gw.base());
        long group = gw.defaultGroupId();
        HtmlPage edit = web.getPage(gw.base() + "/groups/" + group);
        edit.<HtmlCheckBoxInput>getHtmlElementById("g-halt").setChecked(true);
        edit.<HtmlButton>getHtmlElementById("group-save").click();
        assertEquals("on", gw.admin("GET", "/groups/" + group, null).path("halt_policy").asText());

        for (FakeUpstream u : new FakeUpstream[] {a, b}) {
            gw.account("acct-" + u.port(), u, MAPS, "{\"failure_policy\":{\"retry_count\":0}}");
            u.enqueue(Reply.openAiError(429, "rate limit reached", "rate_limit_exceeded"));
        }
        assertEquals(429, gw.chat("gpt-5.6-sol").statusCode()); // P-8' (revised from 502): every attempt a 429
        gw.clock.advance(Duration.ofSeconds(12));

        DomElement halt = groupsPage().getElementById("group-" + group).querySelector("td.halt");
        assertEquals("开启", text(halt, ".tag-halt-on"));
        assertEquals("停用 18 秒", text(halt, ".badge-halted"));
        DomElement badge = halt.querySelector(".badge-halted");
        assertEquals("18", badge.getAttribute("data-cooldown-seconds"), "counts down in the browser");
        assertEquals("停用 {0} 秒", badge.getAttribute("data-label"));
        assertEquals("限流", text(halt, ".halt-reason"));

        gw.clock.advance(Duration.ofSeconds(19));
        assertEquals(200, gw.chat("gpt-5.6-sol").statusCode());
        halt = groupsPage().getElementById("group-" + group).querySelector("td.halt");
        assertNull(halt.querySelector(".badge-halted"), "a success cleared the halt");
    }

    private HtmlPage groupsPage() throws Exception {
        return web.getPage(gw.base() + "/groups");
    }

    private DomElement row(long id) throws Exception {
        return web.<HtmlPage>getPage(gw.base() + "/accounts").getElementById("account-" + id);
    }

    private int names(String path) throws Exception {
        return web.<HtmlPage>getPage(gw.base() + path).querySelectorAll("#account-rows td.name").size();
    }
}
