package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.fake.Reply;
import dev.detour.testkit.Rows;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.htmlunit.WebClient;
import org.htmlunit.html.DomNode;
import org.htmlunit.html.HtmlAnchor;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** U-5/U-6 console pages in a real browser: request log, detail, dashboard, audit, settings. */
class OperatingPagesIT {
    private Gateway gw;
    private FakeUpstream upstream;
    private WebClient web;

    @BeforeEach
    void start() throws Exception {
        gw = Gateway.start();
        upstream = FakeUpstream.start();
        web = ConsolePages.browser(false);
        ConsolePages.signIn(web, gw.base());
    }

    @AfterEach
    void stop() {
        web.close();
        gw.close();
        upstream.close();
    }

    private HtmlPage page(String path) throws Exception {
        return web.getPage(gw.base() + path);
    }

    private static List<String> ids(HtmlPage page) {
        List<String> ids = new ArrayList<>();
        for (DomNode row : page.querySelectorAll("#request-rows tr.event")) {
            ids.add(((org.htmlunit.html.HtmlElement) row).getAttribute("data-id"));
        }
        return ids;
    }

    @Test
    void theRequestLogFiltersAndPagesOlderWithoutOverlap() throws Exception {
        Rows.insertEvents(500, "2026-11-29 09:00:00");
        HtmlPage first = page("/requests?group=2&outcome=failure");
        List<String> seen = new ArrayList<>(ids(first));
        HtmlPage current = first;
        while (current.querySelector("#older") != null) {
            current = ((HtmlAnchor) current.querySelector("#older")).click();
            seen.addAll(ids(current));
        }
        List<String> expected = Rows.strings("SELECT id FROM request_events WHERE group_id = 2 AND outcome = 'failure' "
                + "ORDER BY id DESC");
        assertEquals(expected, seen, "every matching row once, newest first");
        assertTrue(expected.size() > 50, "more than one page");
        assertEquals(422, page("/requests?status=abc").getWebResponse().getStatusCode());
    }

    @Test
    void theDetailViewShowsTheAttemptChain() throws Exception {
        long account = gw.account("relay-a", upstream, "[{\"from\":\"m\",\"to\":\"m\"}]",
                "{\"failure_policy\":{\"retry_count\":1,\"retry_interval_ms\":0,\"cooldown_enabled\":false}}");
        upstream.enqueue(Reply.openAiError(500, "boom", "server_error"), Reply.chatCompletion());
        HttpResponse<String> response = gw.chat("m");
        assertEquals(200, response.statusCode());
        String id = response.headers().firstValue("x-detour-request-id").orElseThrow();
        gw.events(1);

        HtmlPage list = page("/requests");
        HtmlPage detail = ((HtmlAnchor) list.getAnchorByText(id)).click();
        List<String> statuses = new ArrayList<>();
        List<String> actions = new ArrayList<>();
        for (DomNode row : detail.querySelectorAll("#attempts tr.attempt")) {
            statuses.add(row.querySelector(".status").getTextContent().trim());
            actions.add(row.querySelector(".action").getTextContent().trim());
            assertEquals("relay-a", row.querySelector(".account").getTextContent().trim());
        }
        assertEquals(List.of("500", "200"), statuses);
        assertEquals(List.of("Retried the same account", "Final"), actions);
        assertEquals("upstream_status", detail.querySelector("#attempts tr.attempt .kind").getTextContent().trim());
        assertTrue(detail.querySelector("#request-summary").getTextContent().contains("127.0.0.1"));
        assertTrue(account > 0);
        assertEquals(404, page("/requests/NOSUCHREQUEST").getWebResponse().getStatusCode());
    }

    @Test
    void theDashboardsTokensCountEveryClassSinceInputNoLongerHoldsCachedTokens() throws Exception {
        // B-4: 12 input + 1,800 cache read + 1,536 and 512 cache writes + 503 output (of which 0 reasoning)
        Rows.execute("INSERT INTO request_events (request_id, endpoint, outcome, status, attempts_json, rejections_json, "
                + "latency_ms, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cache_write_1h_tokens,"
                + " created_at) VALUES ('CACHED00000000000000000001', 'messages', 'success', 200, '[]', '[]', 10, 12,"
                + " 503, 1800, 1536, 512, '2026-11-29 09:59:00')");
        assertEquals("4363", text(page("/"), "#window-hour .tokens"));
    }

    @Test
    void theDashboardsNumbersMatchTheEvents() throws Exception {
        // the Gateway clock reads 2026-11-29T10:00:00Z: 200 events one per second from 09:50 are in the last hour
        Rows.insertEvents(200, "2026-11-29 09:50:00");
        Rows.execute("INSERT INTO request_events (request_id, endpoint, outcome, status, attempts_json, rejections_json, "
                + "latency_ms, input_tokens, created_at) VALUES ('OLD00000000000000000000001', 'chat_completions', "
                + "'success', 200, '[]', '[]', 99999, 1000, '2026-11-28 08:00:00')"); // outside both windows
        HtmlPage home = page("/");
        String hour = "#window-hour ";
        assertEquals("200", text(home, hour + ".requests"));
        long successes = Rows.number("SELECT COUNT(*) FROM request_events WHERE outcome = 'success' AND latency_ms < 99999");
        assertEquals(String.format(Locale.ROOT, "%.1f%%", 100.0 * successes / 200), text(home, hour + ".success"));
        long tokens = Rows.number("SELECT SUM(input_tokens + output_tokens) FROM request_events WHERE latency_ms < 99999");
        assertEquals(Long.toString(tokens), text(home, hour + ".tokens"));
        List<Long> latencies = Rows.strings("SELECT latency_ms FROM request_events WHERE latency_ms < 99999 ORDER BY latency_ms")
                .stream().map(Long::parseLong).toList();
        List<Long> ttfts = Rows.strings("SELECT ttft_ms FROM request_events WHERE ttft_ms IS NOT NULL ORDER BY ttft_ms")
                .stream().map(Long::parseLong).toList();
        assertEquals(rank(latencies, 50) + " / " + rank(latencies, 95) + " ms", text(home, hour + ".latency"));
        assertEquals(rank(ttfts, 50) + " / " + rank(ttfts, 95) + " ms", text(home, hour + ".ttft"));
        assertEquals("0.0006", text(home, hour + ".cost")); // 200 × 3 µ$
        assertEquals("200", text(home, "#window-day .requests"));
        assertEquals(60, home.querySelectorAll("#window-hour svg.chart")
                .get(0).querySelectorAll("rect.bar").size(), "one bar per minute");
        // top failing accounts: failure events (seq % 4 == 1) grouped by account (seq % 5 + 1)
        String top = Rows.strings("SELECT account_id FROM request_events WHERE outcome = 'failure' GROUP BY account_id "
                + "ORDER BY COUNT(*) DESC, account_id LIMIT 1").get(0);
        assertEquals(Rows.number("SELECT COUNT(*) FROM request_events WHERE outcome = 'failure' AND account_id = " + top),
                Long.parseLong(text(home, "#failing-" + top + " .failures")));
        // the htmx poll fetches the fragment only
        assertNotNull(home.querySelector("#dashboard-summary[hx-trigger='every 10s']"));
        web.addRequestHeader("HX-Request", "true");
        String fragment = web.getPage(gw.base() + "/").getWebResponse().getContentAsString();
        web.removeRequestHeader("HX-Request");
        assertTrue(fragment.trim().startsWith("<div id=\"dashboard-summary\""), fragment.substring(0, 60));
    }

    private static long rank(List<Long> sorted, int p) {
        return sorted.get((int) Math.ceil(p / 100.0 * sorted.size()) - 1);
    }

    private static String text(HtmlPage page, String selector) {
        DomNode node = page.querySelector(selector);
        assertNotNull(node, selector);
        return node.getTextContent().trim();
    }

    @Test
    void theAuditPageListsChangesWithoutSecrets() throws Exception {
        gw.account("relay-secret", upstream, "[{\"from\":\"m\",\"to\":\"m\"}]", null);
        HtmlPage audit = page("/audit");
        String table = audit.querySelector("#audit-table").getTextContent();
        assertTrue(table.contains("relay-secret"));
        assertTrue(table.contains("admin-token"), "who");
        assertTrue(!table.contains("sk-test-relay-secret-secret"), "no upstream key");
    }

    @Test
    void theSettingsPageRejectsOutOfRangeValuesAndAppliesValidOnes() throws Exception {
        HtmlPage settings = page("/settings");
        HtmlForm form = settings.getHtmlElementById("settings-form");
        form.getInputByName("read_timeout_seconds").setValue("0");
        HtmlPage rejected = form.getOneHtmlElementByAttribute("button", "type", "submit").click();
        assertEquals(422, rejected.getWebResponse().getStatusCode());
        assertNotNull(rejected.querySelector("#error-read_timeout_seconds"));
        assertNull(rejected.querySelector("#error-connect_timeout_seconds"));
        assertEquals(180, gw.app.settings().current().readTimeout().toSeconds());

        HtmlForm again = rejected.getHtmlElementById("settings-form");
        again.getInputByName("read_timeout_seconds").setValue("90");
        again.getInputByName("sticky_ttl_seconds").setValue("120");
        HtmlPage saved = again.getOneHtmlElementByAttribute("button", "type", "submit").click();
        assertNotNull(saved.querySelector("#settings-saved"));
        assertEquals(90, gw.app.settings().current().readTimeout().toSeconds(), "applied without a restart");
        assertEquals("90", saved.getHtmlElementById("setting-read_timeout_seconds").getAttribute("value"));
        assertEquals(120, gw.admin("GET", "/settings", null).path("sticky_ttl_seconds").asLong());
    }

    @Test
    void theNavLinksTheOperatingPages() throws Exception {
        HtmlPage home = page("/");
        Set<String> links = new HashSet<>();
        home.querySelectorAll("nav a").forEach(a -> links.add(((HtmlAnchor) a).getHrefAttribute()));
        assertTrue(links.containsAll(Set.of("/requests", "/audit", "/settings")), links.toString());
        page("/lang?l=zh&next=/requests");
        assertTrue(page("/requests").asNormalizedText().contains("请求日志"));
    }
}
