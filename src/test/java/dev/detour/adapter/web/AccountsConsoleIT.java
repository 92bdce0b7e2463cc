package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.fake.Reply;
import java.net.URL;
import java.util.List;
import org.htmlunit.WebClient;
import org.htmlunit.WebRequest;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** U-2 / U-3: the accounts page's status tag, badges, hover panel, filters and the polled fragment (HtmlUnit). */
class AccountsConsoleIT {
    static final String ONE_MODEL = "[{\"from\":\"gpt-x\",\"to\":\"up-x\"}]";
    static final String COOLDOWN = "{\"failure_policy\":{\"retry_count\":0,\"cooldown_enabled\":true,"
            + "\"cooldown_seconds\":30}}";
    private Gateway gw;
    private FakeUpstream upstream;
    private WebClient web;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        upstream = FakeUpstream.start();
        web = ConsolePages.browser(false);
    }

    @AfterEach
    void stop() {
        web.close();
        upstream.close();
        gw.close();
    }

    @Test
    void aRealRateLimitShowsTheErrorCountTheCooldownBadgeAndOneUnavailableModelInChinese() throws Exception {
        long id = gw.account("relay-a", upstream, ONE_MODEL, COOLDOWN);
        upstream.enqueue(Reply.openAiError(429, "rate limited, slow down", "rate_limit_exceeded"));
        // P-8' (revised from ">= 500"): the only account's 429 reaches the client as a 429
        assertEquals(429, gw.chat("gpt-x").statusCode(), "the only account failed");
        web.addRequestHeader("Accept-Language", "zh-CN");
        ConsolePages.signIn(web, gw.base());

        DomElement row = web.<HtmlPage>getPage(gw.base() + "/accounts").getElementById("account-" + id);
        assertEquals("错误 1 次", text(row, ".tag"));
        DomElement cooldown = row.querySelector(".badge-cooldown");
        assertEquals("冷却 30 秒", cooldown.getTextContent());
        assertEquals("30", cooldown.getAttribute("data-cooldown-seconds"));
        assertEquals("2026-11-29T10:00:30Z", cooldown.getAttribute("data-cooldown-until"));
        assertEquals("冷却 {0} 秒", cooldown.getAttribute("data-label"));
        assertEquals("模型 1 不可用", text(row, ".badge-orange"));
        DomElement line = row.querySelector(".panel .model-line");
        assertEquals("up-x", text(line, ".model-key"));
        assertEquals("(gpt-x)", text(line, ".aliases"));
        assertEquals("冷却中", text(line, ".reason"));
        assertEquals("剩余 30 秒", text(line, ".remaining"));
        assertTrue(text(line, ".message").contains("429"), line.asNormalizedText());
    }

    @Test
    void theSameStateReadsInEnglishAndTheBadgesGoWhenTheCooldownIsOver() throws Exception {
        long id = gw.account("relay-a", upstream, ONE_MODEL, COOLDOWN);
        upstream.enqueue(Reply.openAiError(429, "rate limited", "rate_limit_exceeded"));
        gw.chat("gpt-x");
        ConsolePages.signIn(web, gw.base());

        gw.clock.advance(java.time.Duration.ofSeconds(12));
        DomElement row = web.<HtmlPage>getPage(gw.base() + "/accounts").getElementById("account-" + id);
        assertEquals("1 error", text(row, ".tag"));
        assertEquals("Cooling 18s", text(row, ".badge-cooldown"));
        assertEquals("1 model unavailable", text(row, ".badge-orange"));

        gw.clock.advance(java.time.Duration.ofSeconds(30));
        row = web.<HtmlPage>getPage(gw.base() + "/accounts").getElementById("account-" + id);
        assertEquals("1 error", text(row, ".tag"), "the count stays until a success");
        assertNull(row.querySelector(".badge-cooldown"));
        assertNull(row.querySelector(".badge-orange"), "an expired cooldown is no longer unavailable");
    }

    @Test
    void terminalStatesKeepTheirLabelsAndTheModelBadgeCountsCoolingErrorAndPaused() throws Exception {
        long revoked = PoolRows.account(gw, "relay-r", ONE_MODEL);
        long multi = PoolRows.account(gw, "relay-m", "[{\"from\":\"a\",\"to\":\"up-a\"},{\"from\":\"b\",\"to\":\"up-b\"},"
                + "{\"from\":\"c\",\"to\":\"up-c\"},{\"from\":\"d\",\"to\":\"up-d\"}]");
        PoolRows.execute("UPDATE accounts SET status = 'revoked', transient_failure_count = 4 WHERE id = " + revoked);
        PoolRows.modelRow(gw, multi, "up-a", "ok", 1, 20, "slow", null);
        PoolRows.modelRow(gw, multi, "up-b", "error", 3, null, "bad", null);
        PoolRows.modelRow(gw, multi, "up-c", "paused", 0, null, null, null);
        PoolRows.modelRow(gw, multi, "up-d", "ok", 2, -5, "expired", null);
        ConsolePages.signIn(web, gw.base());

        HtmlPage page = web.getPage(gw.base() + "/accounts");
        assertEquals("Revoked", text(page.getElementById("account-" + revoked), ".tag"));
        DomElement row = page.getElementById("account-" + multi);
        assertEquals("OK", text(row, ".tag"));
        assertEquals("3 models unavailable", text(row, ".badge-orange"));
        List<String> reasons = row.querySelectorAll(".model-line .reason").stream().map(n -> n.getTextContent()).toList();
        assertEquals(List.of("Cooling down", "Error", "Paused"), reasons);
    }

    @Test
    void thePanelShowsAliasesMappingRemovedAndBothRemindersInTheirOwnColours() throws Exception {
        long id = PoolRows.account(gw, "relay-a", "[{\"from\":\"gpt-a\",\"to\":\"up-a\"},{\"from\":\"gpt-a2\",\"to\":\"up-a\"}]");
        PoolRows.modelRow(gw, id, "up-a", "ok", 1, 40, "slow down", null);
        PoolRows.modelRow(gw, id, "up-gone", "error", 5, null, "Forbidden",
                "{\"error\":{\"code\":\"SENSITIVE_WORDS_DETECTED\"}}");
        PoolRows.execute("UPDATE accounts SET transient_failure_count = 2, last_failure_message = "
                + "'upstream said: budget pool quota has been exhausted' WHERE id = " + id);
        web.addRequestHeader("Accept-Language", "zh-CN");
        ConsolePages.signIn(web, gw.base());

        DomElement row = web.<HtmlPage>getPage(gw.base() + "/accounts").getElementById("account-" + id);
        List<DomElement> lines = row.querySelectorAll(".model-line").stream().map(n -> (DomElement) n).toList();
        assertEquals("(gpt-a, gpt-a2)", text(lines.get(0), ".aliases"));
        assertEquals("up-gone", text(lines.get(1), ".model-key"));
        assertEquals("(已移除映射)", text(lines.get(1), ".aliases.removed"));
        assertEquals("异常", text(lines.get(1), ".reason"));
        assertEquals("友情提醒：当前中转站似乎对项目存在关键词检测，您的项目可能存在敏感词，也不排除是中转站误判。",
                text(row, ".reminder-sensitive_words"));
        assertEquals("友情提醒：当前中转站公共池额度耗尽，并非你个人额度耗尽，请等待下一次公共池补充额度。",
                text(row, ".reminder-budget_pool"));
    }

    @Test
    void remindersAreFoundInRealStoredFailuresWhateverTheCaseInTheBodyOrTheMessage() throws Exception {
        FakeUpstream second = FakeUpstream.start();
        try {
            long budget = gw.account("relay-budget", upstream, ONE_MODEL, COOLDOWN);
            long words = gw.account("relay-words", second, ONE_MODEL, "{\"priority\":1," + COOLDOWN.substring(1));
            upstream.enqueue(Reply.openAiError(429, "Upstream: Budget Pool Quota Has Been Exhausted", "rate_limit_exceeded"));
            second.enqueue(Reply.openAiError(500, "blocked", "Sensitive_Words_Detected"));
            gw.chat("gpt-x");
            PoolRows.execute("UPDATE accounts SET last_failure_message = 'SENSITIVE_WORDS_DETECTED by relay', "
                    + "last_failure_response_json = NULL WHERE id = " + words);
            ConsolePages.signIn(web, gw.base());

            HtmlPage page = web.getPage(gw.base() + "/accounts");
            DomElement budgetRow = page.getElementById("account-" + budget);
            assertTrue(text(budgetRow, ".reminder-budget_pool").startsWith("Note: the relay's shared budget pool"), budgetRow.asNormalizedText());
            assertNull(budgetRow.querySelector(".reminder-sensitive_words"));
            assertNotNull(page.getElementById("account-" + words).querySelector(".reminder-sensitive_words"),
                    "found in the stored message alone, upper case");
        } finally {
            second.close();
        }
    }

    @Test
    void aCappedRetryAfterShowsTheUpstreamsOwnResetTimeFromTheRateLimitLedger() throws Exception {
        long id = gw.account("relay-a", upstream, ONE_MODEL, "{\"failure_policy\":{\"retry_count\":0,"
                + "\"cooldown_enabled\":true,\"cooldown_seconds\":30,\"honor_retry_after\":true,\"retry_after_cap_seconds\":120}}");
        upstream.enqueue(Reply.openAiError(429, "rate limited", "rate_limit_exceeded").header("retry-after", "3600"));
        gw.chat("gpt-x");
        ConsolePages.signIn(web, gw.base());

        DomElement line = web.<HtmlPage>getPage(gw.base() + "/accounts").getElementById("account-" + id)
                .querySelector(".panel .model-line");
        assertEquals("120 s left", text(line, ".remaining"), "the cooldown is capped");
        assertEquals("upstream resets at 2026-11-29 11:00:00 UTC", text(line, ".reset-at"), "C-7 reset_at, uncapped");
    }

    @Test
    void filtersBySearchGroupStatusAndOnlyProblems() throws Exception {
        gw.group("cheap");
        long healthy = PoolRows.account(gw, "alpha-relay", ONE_MODEL);
        long failing = PoolRows.account(gw, "beta-relay", ONE_MODEL);
        long other = PoolRows.account(gw, "gamma-relay", ONE_MODEL);
        gw.admin("PUT", "/accounts/" + other, "{\"group\":\"cheap\"}");
        PoolRows.execute("UPDATE accounts SET transient_failure_count = 1 WHERE id = " + failing);
        ConsolePages.signIn(web, gw.base());

        assertEquals(List.of("beta-relay"), names("/accounts?problems=on"));
        assertEquals(List.of("gamma-relay"), names("/accounts?group=cheap"));
        assertEquals(List.of("alpha-relay"), names("/accounts?q=ALPHA"));
        assertEquals(List.of("beta-relay"), names("/accounts?status=failing"));
        assertEquals(3, names("/accounts").size());
        assertTrue(healthy > 0);
    }

    @Test
    void anHtmxPollGetsOnlyTheRowsFragmentWhichPollsAgain() throws Exception {
        PoolRows.account(gw, "relay-a", ONE_MODEL);
        ConsolePages.signIn(web, gw.base());
        WebRequest request = new WebRequest(new URL(gw.base() + "/accounts?q=relay"));
        request.setAdditionalHeader("HX-Request", "true");
        String body = web.getPage(request).getWebResponse().getContentAsString().strip();

        assertTrue(body.startsWith("<tbody id=\"account-rows\""), body);
        assertTrue(body.endsWith("</tbody>"), body);
        assertTrue(body.contains("hx-trigger=\"every 5s\""), body);
        assertTrue(body.contains("hx-get=\"/accounts?q=relay\""), body);
        assertTrue(body.contains("relay-a"));
        assertFalse(body.contains("<table") || body.contains("<html") || body.contains("filters"), body);
    }

    private List<String> names(String path) throws Exception {
        HtmlPage page = web.getPage(gw.base() + path);
        return page.querySelectorAll("#account-rows td.name").stream().map(n -> n.getTextContent().strip()).toList();
    }

    static String text(DomElement scope, String selector) {
        DomElement found = scope.querySelector(selector);
        assertNotNull(found, selector + " in " + scope.asXml());
        return found.getTextContent().strip();
    }
}
