package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.smart.SmartCalls;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.fake.Reply;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.htmlunit.WebClient;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** E-1 "check now" (budgeted, cooled down per key, never on the request thread) and route states per endpoint family. */
class MyChecksIT {
    private Gateway gw;
    private FakeUpstream good;
    private FakeUpstream bad;
    private FakeUpstream bad2;
    private WebClient web;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        good = FakeUpstream.start();
        bad = FakeUpstream.start();
        bad2 = FakeUpstream.start();
        web = ConsolePages.browser(false);
    }

    @AfterEach
    void stop() {
        web.close();
        gw.close();
        good.close();
        bad.close();
        bad2.close();
    }

    private long account(String name, FakeUpstream upstream, int priority, String extra) {
        return gw.account(name, upstream, "[{\"from\":\"m\",\"to\":\"up-" + name + "\"}]", "{\"priority\":" + priority
                + ",\"failure_policy\":{\"retry_count\":0,\"cooldown_enabled\":true,\"cooldown_seconds\":600}"
                + extra + "}");
    }

    private HtmlPage signIn(WebClient browser, String key) throws IOException {
        HtmlForm form = ((HtmlPage) browser.getPage(gw.base() + "/my")).getHtmlElementById("my-login");
        form.getInputByName("key").setValue(key);
        return form.getOneHtmlElementByAttribute("button", "type", "submit").click();
    }

    private static String state(HtmlPage page, String family, long accountId) {
        DomElement row = page.getElementById("route-m-" + family + "-" + accountId);
        assertNotNull(row, family + " route of account " + accountId + " in " + page.asNormalizedText());
        return row.getAttribute("data-state");
    }

    private static HtmlPage checkNow(HtmlPage page) throws IOException {
        return ((HtmlForm) page.getElementById("check-m")).getOneHtmlElementByAttribute("button", "type", "submit")
                .click();
    }

    private static String notice(HtmlPage page) {
        DomElement notice = page.getElementById("my-check-notice");
        assertNotNull(notice, page.asNormalizedText());
        return notice.getAttribute("data-code") + "|" + notice.getTextContent().trim();
    }

    /** Two keys whose first request fails over from the failing routes (each then cools 600 s) to the good one. */
    private String keyAfterFailures(String name) {
        String key = gw.admin("POST", "/keys", "{\"name\":\"" + name + "\"}").path("key").asText();
        assertEquals(200, new SmartCalls(gw).chat(key, "m").statusCode());
        return key;
    }

    @Test
    void checkNowProbesTheFailedRouteWhichThenShowsAvailableAndASecondClickWithinTheCooldownIsRefused()
            throws Exception {
        long failing = account("d", bad, 0, "");
        long fine = account("a", good, 1, "");
        bad.enqueue(Reply.openAiError(500, "boom", "server_error"));
        String key = keyAfterFailures("holder");
        gw.events(1);
        HtmlPage my = signIn(web, key);
        assertEquals("unavailable", state(my, "chat_completions", failing));
        assertEquals("available", state(my, "chat_completions", fine));

        CountDownLatch upstreamAnswers = new CountDownLatch(1);
        bad.enqueue(Reply.chatCompletion().holdAt(Reply.BEFORE_HEADERS).releasedBy(upstreamAnswers));
        HtmlPage queued = checkNow(my); // answered while the probe still waits for the upstream
        assertTrue(ConsolePages.path(queued).startsWith("/my?check=queued"), ConsolePages.path(queued));
        assertTrue(notice(queued).startsWith("my.check.queued|Checking 1 route(s) of m"), notice(queued));
        bad.awaitRequests(2);
        HtmlPage checking = reload();
        assertEquals("checking", state(checking, "chat_completions", failing));
        DomElement section = checking.getElementById("my-routes");
        assertEquals("every 3s", section.getAttribute("hx-trigger"), "htmx refreshes the routes while a check runs");
        org.htmlunit.WebRequest htmx = new org.htmlunit.WebRequest(new java.net.URL(gw.base() + "/my"));
        htmx.setAdditionalHeader("HX-Request", "true");
        String fragment = web.getPage(htmx).getWebResponse().getContentAsString().trim();
        assertTrue(fragment.startsWith("<div id=\"my-routes\"") && !fragment.contains("<html"), fragment);
        upstreamAnswers.countDown();
        assertEquals("ping", Gateway.read(bad.lastRequest().body()).path("messages").get(0).path("content").asText());
        Gateway.await(() -> "available".equals(state(reload(), "chat_completions", failing)),
                "the failed route is available after its passing check");
        assertEquals("", reload().getElementById("my-routes").getAttribute("hx-trigger"), "no polling when idle");
        JsonNode receipt = gw.events(2).stream().filter(e -> e.path("key_id").isNull()).findFirst().orElseThrow();
        assertEquals("healthcheck_probe", receipt.path("reason_code").asText(), "the probe leaves its receipt");
        assertEquals(failing, receipt.path("account_id").asLong());

        HtmlPage refused = checkNow(reload());
        assertTrue(notice(refused).startsWith("my.check.cooled_down|"), notice(refused));
        assertTrue(notice(refused).contains("60 s"), notice(refused));
        assertEquals(2, bad.requestCount(), "a refused check probes nothing");
        assertEquals(1, good.requestCount(), "the good route is never probed");

        gw.clock.advance(Duration.ofSeconds(61));
        assertTrue(notice(checkNow(reload())).startsWith("my.check.nothing_to_check|"), "cooldown over, all fine");
    }

    private HtmlPage reload() {
        try {
            return web.getPage(gw.base() + "/my");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void checksSpendTheSiteProbeBudgetAndAKeyIsNotCooledDownByARefusal() throws Exception {
        assertEquals(1, gw.admin("PUT", "/settings", "{\"probe_budget_per_minute\":1}")
                .path("probe_budget_per_minute").asInt());
        long first = account("d", bad, 0, "");
        long second = account("e", bad2, 1, "");
        account("a", good, 2, "");
        bad.enqueue(Reply.openAiError(500, "boom", "server_error"));
        bad2.enqueue(Reply.openAiError(500, "boom", "server_error"));
        String one = keyAfterFailures("one");
        String two = gw.admin("POST", "/keys", "{\"name\":\"two\"}").path("key").asText();

        HtmlPage queued = checkNow(signIn(web, one));
        assertTrue(notice(queued).startsWith("my.check.queued|Checking 1 route(s)"), notice(queued));
        Gateway.await(() -> "available".equals(state(reload(), "chat_completions", first)), "first route checked");
        assertEquals("unavailable", state(reload(), "chat_completions", second), "over budget: not probed");
        assertEquals(1, bad2.requestCount());

        try (WebClient other = ConsolePages.browser(false)) {
            HtmlPage overBudget = checkNow(signIn(other, two));
            assertTrue(notice(overBudget).startsWith("my.check.over_budget|"), notice(overBudget));
            assertEquals(1, bad2.requestCount(), "the budget is respected");
            gw.clock.advance(Duration.ofSeconds(61)); // a new minute of budget; key two was not cooled down
            HtmlPage later = checkNow(overBudget);
            assertTrue(notice(later).startsWith("my.check.queued|"), notice(later));
            bad2.awaitRequests(2);
        }
    }

    @Test
    void routeStatesArePerEndpointFamilySoAMessagesOnlyAccountIsShownWhereItServes() throws Exception {
        long chatOnly = account("c", good, 0, ",\"endpoint_families\":[\"chat_completions\"]");
        long messagesOnly = account("n", bad, 1, ",\"endpoint_families\":[\"messages\"]");
        String key = gw.admin("POST", "/keys", "{\"name\":\"families\"}").path("key").asText();
        bad.enqueue(Reply.json(200, "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":"
                + "[{\"type\":\"text\",\"text\":\"hi\"}],\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}"));
        assertEquals(200, new SmartCalls(gw).post(key, "/v1/messages", "{\"model\":\"m\",\"max_tokens\":8,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}").statusCode());
        gw.events(1);

        HtmlPage my = signIn(web, key);
        assertEquals("unsampled", state(my, "chat_completions", chatOnly));
        assertEquals("unsupported", state(my, "chat_completions", messagesOnly));
        assertEquals("available", state(my, "messages", messagesOnly), "the messages-only account serves messages");
        assertEquals("unsupported", state(my, "messages", chatOnly));
        assertNull(my.getElementById("family-m-responses"), "no account of this model serves responses");
        assertTrue(my.getElementById("family-m-messages").getTextContent().contains("Messages"));
        HtmlPage zh = my.getAnchorByText("中文").click();
        assertTrue(zh.getElementById("family-m-messages").getTextContent().contains("Messages 接口"));
        assertTrue(zh.getElementById("route-m-chat_completions-" + messagesOnly).getTextContent()
                .contains("不支持本次接口"));
    }
}
