package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.Rows;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.htmlunit.WebClient;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.DomNode;
import org.htmlunit.html.HtmlAnchor;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;
import org.htmlunit.html.HtmlSelect;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * U-7 the request log by names and U-8 the dashboard's breakdowns, over a seeded set of events whose sums are known.
 * The Gateway's clock reads 2026-11-29T10:00:00Z: the 24-hour window is [11-28 11:00, 11-29 11:00).
 */
class UsageConsoleIT {
    private Gateway gw;
    private FakeUpstream upstream;
    private WebClient web;
    private long alice;
    private String aliceKey;
    private long bob;
    private long relayA;
    private long relayB;
    private long team;

    @BeforeEach
    void start() throws Exception {
        gw = Gateway.start();
        upstream = FakeUpstream.start();
        web = ConsolePages.browser(false);
        ConsolePages.signIn(web, gw.base());
        gw.key(); // creates the default group
        team = gw.group("team");
        relayA = gw.account("relay-a", upstream, "[{\"from\":\"gpt-a\",\"to\":\"gpt-a\"}]", null);
        relayB = gw.account("relay-b", upstream, "[{\"from\":\"gpt-b\",\"to\":\"gpt-b\"}]", null);
        var created = gw.admin("POST", "/keys", "{\"name\":\"alice\",\"spend_limit\":10}");
        alice = created.path("id").asLong();
        aliceKey = created.path("key").asText();
        bob = gw.admin("POST", "/keys", "{\"name\":\"bob\"}").path("id").asLong();
        long defaultGroup = gw.defaultGroupId();
        // request, key, model, account, group, outcome, latency, input, output, cache read, cache write 5m, cost, at, queued
        event("E1", alice, "gpt-a", relayA, defaultGroup, "success", 100, 1000, 200, 3000, 0, 1_500_000, "2026-11-29 09:10:00", 40);
        event("E2", alice, "gpt-a", relayA, defaultGroup, "failure", 300, 10, 0, 0, 0, 0, "2026-11-29 09:20:00", null);
        event("E3", bob, "gpt-b", relayB, team, "success", 200, 500, 500, 0, 1000, 250_000, "2026-11-29 08:30:00", 60);
        event("E4", bob, "gpt-b", relayB, team, "client_error", 50, 7, 0, 0, 0, 0, "2026-11-26 12:00:00", null);
        Rows.execute("UPDATE accounts SET archived = TRUE WHERE id = " + relayB); // old events still name it
    }

    @AfterEach
    void stop() {
        web.close();
        gw.close();
        upstream.close();
    }

    private static void event(String id, long key, String model, long account, long group, String outcome, int latency,
            long input, long output, long cacheRead, long cacheWrite, long cost, String at, Integer queuedMs) {
        Rows.execute("INSERT INTO request_events (request_id, key_id, endpoint, requested_model, account_id, group_id, "
                + "outcome, status, attempts_json, rejections_json, latency_ms, input_tokens, output_tokens, "
                + "cache_read_tokens, cache_write_tokens, cost_micros, created_at, queued_ms) VALUES ('"
                + String.format("%-26s", id).replace(' ', '0') + "', " + key + ", 'chat_completions', '" + model + "', "
                + account + ", " + group + ", '" + outcome + "', " + (outcome.equals("success") ? 200 : 400) + ", '[]', '[]', "
                + latency + ", " + input + ", " + output + ", " + cacheRead + ", " + cacheWrite + ", " + cost + ", '" + at
                + "', " + queuedMs + ")");
    }

    private HtmlPage page(String path) throws Exception {
        return web.getPage(gw.base() + path);
    }

    private static List<String> requestIds(HtmlPage page) {
        List<String> ids = new ArrayList<>();
        for (DomNode row : page.querySelectorAll("#request-rows tr.event")) {
            ids.add(row.querySelector("td:nth-child(2) a").getTextContent().trim().replaceAll("0+$", ""));
        }
        return ids;
    }

    private static String text(DomNode node, String selector) {
        DomNode found = node.querySelector(selector);
        assertNotNull(found, selector);
        return found.getTextContent().trim().replaceAll("\\s+", " ");
    }

    @Test
    void theRequestLogNamesKeysAccountsAndGroupsWithLinksAndItsPickersFilterByName() throws Exception {
        HtmlPage log = page("/requests");
        assertEquals(List.of("E4", "E3", "E2", "E1"), requestIds(log), "newest stored first");
        DomNode e3 = log.querySelector("#request-rows tr.event:nth-child(2)");
        assertEquals("bob", text(e3, "td.key a"));
        assertEquals("/keys/" + bob + "/policy", ((HtmlAnchor) e3.querySelector("td.key a")).getHrefAttribute());
        assertEquals("relay-b (archived)", text(e3, "td.account"), "an archived account is still named");
        assertEquals("/accounts/" + relayB + "/edit", ((HtmlAnchor) e3.querySelector("td.account a")).getHrefAttribute());
        assertEquals("/groups/" + team, ((HtmlAnchor) e3.querySelector("td.group a")).getHrefAttribute());
        assertEquals("team", text(e3, "td.group a"));
        assertEquals("$0.2500", text(e3, "td.cost"));
        assertEquals("500 / 500 cache 0 read · 1,000 written", text(e3, "td.tokens"));
        DomNode e1 = log.querySelector("#request-rows tr.event:nth-child(4)");
        assertEquals("$1.50", text(e1, "td.cost"));
        assertEquals("1,000 / 200 cache 3,000 read · 0 written", text(e1, "td.tokens"));

        // the pickers: keys, accounts (archived ones marked), groups by name; models from the log
        HtmlForm filters = log.getHtmlElementById("request-filters");
        HtmlSelect keys = filters.getSelectByName("key");
        keys.setSelectedAttribute(keys.getOptionByText("alice"), true);
        HtmlPage byAlice = filters.getOneHtmlElementByAttribute("button", "type", "submit").click();
        assertEquals(List.of("E2", "E1"), requestIds(byAlice));
        assertEquals("alice", ((HtmlSelect) byAlice.getElementById("filter-key")).getSelectedOptions().get(0).getText(),
                "the picker keeps the choice");
        HtmlSelect accounts = byAlice.getHtmlElementById("filter-account");
        assertNotNull(accounts.getOptionByText("relay-b (archived)"));
        List<String> models = new ArrayList<>();
        byAlice.querySelectorAll("#known-models option").forEach(o -> models.add(((DomElement) o).getAttribute("value")));
        assertEquals(List.of("gpt-a", "gpt-b"), models);

        assertEquals(List.of("E4", "E3"), requestIds(page("/requests?group=team")), "a name in the address filters");
        assertEquals(List.of("E4", "E3"), requestIds(page("/requests?account=" + relayB)), "an old link by id still works");
        assertEquals(List.of("E3"), requestIds(page("/requests?key=bob&outcome=success")));
        HtmlPage unknown = page("/requests?key=nobody");
        assertEquals(422, unknown.getWebResponse().getStatusCode());
        assertNotNull(unknown.getElementById("filter-error"));

        page("/lang?l=zh&next=/requests");
        HtmlPage zh = page("/requests");
        assertEquals("relay-b （已归档）", text(zh.querySelector("#request-rows tr.event:nth-child(2)"), "td.account"));
        assertTrue(zh.getElementById("requests-table").getTextContent().contains("费用"));
    }

    @Test
    void theDashboardBreaksTheWindowDownByModelKeyAccountAndGroupWithChartsThatHaveAxes() throws Exception {
        HtmlPage home = page("/");
        DomElement breakdowns = home.getElementById("breakdowns");
        assertEquals("24h", breakdowns.getAttribute("data-window"), "the default window");
        assertEquals("3", text(breakdowns, "#usage-totals .requests"));
        assertEquals("1", text(breakdowns, "#usage-totals .errors"));
        assertEquals("6,210", text(breakdowns, "#usage-totals .tokens")); // 4,200 + 10 + 2,000
        assertEquals("$1.75", text(breakdowns, "#usage-totals .cost"));
        assertEquals("200 / 300 ms", text(breakdowns, "#usage-totals .latency")); // nearest rank of 100, 200, 300
        assertEquals("54.4%", text(breakdowns, "#usage-totals .cache-read")); // 3,000 of 1,510 + 3,000 + 1,000
        assertEquals("2 requests, 50 ms on average", text(breakdowns, "#usage-totals .queued"));

        assertEquals(List.of("gpt-a|2|1|4,210|3,000 / 0|$1.50|100 / 300 ms", "gpt-b|1|0|2,000|0 / 1,000|$0.2500|200 / 200 ms"),
                rows(home, "model"));
        assertEquals(List.of("alice|2|1|4,210|3,000 / 0|$1.50|100 / 300 ms", "bob|1|0|2,000|0 / 1,000|$0.2500|200 / 200 ms"),
                rows(home, "key"));
        assertEquals(List.of("relay-a|2|1|4,210|3,000 / 0|$1.50|100 / 300 ms",
                "relay-b (archived)|1|0|2,000|0 / 1,000|$0.2500|200 / 200 ms"), rows(home, "account"));
        assertEquals(List.of("default|2|1|4,210|3,000 / 0|$1.50|100 / 300 ms", "team|1|0|2,000|0 / 1,000|$0.2500|200 / 200 ms"),
                rows(home, "group"));
        assertEquals("/keys/" + bob + "/policy",
                ((HtmlAnchor) home.querySelector("#by-key tr[data-value='" + bob + "'] a")).getHrefAttribute());
        assertEquals("/groups/" + team,
                ((HtmlAnchor) home.querySelector("#by-group tr[data-value='" + team + "'] a")).getHrefAttribute());

        // charts: one bar an hour, the bars add up to the totals, a labelled y axis and at most six time ticks
        DomElement requests = home.getElementById("chart-requests");
        assertEquals(24, requests.querySelectorAll("rect.bar").size());
        assertEquals(3, sum(requests));
        assertEquals(1, sum(home.getElementById("chart-errors")));
        assertEquals(6210, sum(home.getElementById("chart-tokens")));
        assertEquals(1_750_000, sum(home.getElementById("chart-cost")));
        assertEquals(List.of("0", "1", "2"), labels(requests, "text.y-label"), "0 to the rounded top, 2 requests at 09:00");
        assertEquals(List.of("$0", "$1", "$2"), labels(home.getElementById("chart-cost"), "text.y-label"));
        List<String> times = labels(requests, "text.x-label");
        assertEquals("11:00", times.get(0));
        assertTrue(times.size() <= 6 && times.stream().allMatch(t -> t.matches("\\d\\d:\\d\\d")), times.toString());
        assertTrue(text(requests, "figcaption").contains("UTC"), "the axis says its zone");

        HtmlPage week = ((HtmlAnchor) home.getElementById("span-7d")).click();
        assertEquals("4", text(week, "#usage-totals .requests"), "E4 of three days ago is in the week");
        assertEquals("2", text(week, "#usage-totals .errors"));
        assertEquals(28, week.getElementById("chart-requests").querySelectorAll("rect.bar").size(), "6-hour bars");
        HtmlPage hour = page("/?window=1h");
        assertEquals("2", text(hour, "#usage-totals .requests"), "E1 and E2 of the last hour");
        assertEquals(60, hour.getElementById("chart-requests").querySelectorAll("rect.bar").size(), "a bar a minute");
        HtmlPage month = page("/?window=30d");
        assertEquals("2,007", text(month, "#by-key tr[data-value='" + bob + "'] .tokens"));
        assertEquals("11-25", labels(month.getElementById("chart-requests"), "text.x-label").get(5), "dates for daily bars");

        page("/lang?l=zh&next=/");
        HtmlPage zh = page("/");
        assertEquals("按模型", zh.querySelector("#breakdowns h3").getTextContent().trim());
        assertTrue(text(zh, "#chart-tokens figcaption").contains("Token 数"));
    }

    @Test
    void aKeyHolderSeesTheirOwnUsageByModelAndDayAndTheirLimitNeverAnotherKeys() throws Exception {
        WebClient holder = ConsolePages.browser(false);
        HtmlPage login = holder.getPage(gw.base() + "/my");
        HtmlForm form = login.getHtmlElementById("my-login");
        form.getInputByName("key").setValue(aliceKey);
        HtmlPage my = form.getOneHtmlElementByAttribute("button", "type", "submit").click();
        DomElement usage = my.getElementById("my-usage");
        assertNotNull(usage, my.asNormalizedText());
        assertEquals("2", text(usage, "#usage-totals .requests"), "alice's E1 and E2 only");
        assertEquals("4,210", text(usage, "#usage-totals .tokens"));
        assertEquals("$1.50", text(usage, "#usage-totals .cost"));
        assertEquals(List.of("gpt-a|2|1|4,210|3,000 / 0|$1.50|100 / 300 ms"), rows(my, "model"), "never bob's gpt-b");
        List<String> days = new ArrayList<>();
        for (DomNode day : my.querySelectorAll("#by-day tr.day")) {
            days.add(String.join("|", text(day, ".day-name"), text(day, ".requests"), text(day, ".tokens"), text(day, ".cost")));
        }
        assertEquals(List.of("2026-11-29|2|4,210|$1.50"), days);
        assertEquals(4210, sum(my.getElementById("chart-tokens")));
        assertEquals(30, my.getElementById("chart-tokens").querySelectorAll("rect.bar").size(), "a bar a day");
        assertTrue(!usage.asXml().contains("gpt-b"), "nothing of another key's usage");

        DomNode spend = my.querySelector("#my-limits tr.limit");
        assertEquals("Spend (lifetime)|$10.00|$0.00|$10.00", text(spend, "td") + "|" + text(spend, ".limit-value") + "|"
                + text(spend, ".used") + "|" + text(spend, ".remaining"), "nothing charged to the key yet (seeded events)");

        holder.getPage(gw.base() + "/lang?l=zh&next=/my");
        HtmlPage zh = holder.getPage(gw.base() + "/my");
        assertEquals("我的用量（最近 30 天）", text(zh, "#my-usage h2"));
        assertEquals("花费（累计）", text(zh, "#my-limits tr.limit td"));
        holder.close();
    }

    @Test
    void aKeyHolderSeesEachOfTheKeysPerKeyLimitsWithWhatItHasUsed() throws Exception {
        var created = gw.admin("POST", "/keys", "{\"name\":\"carol\",\"rpm_limit\":5,\"spend_windows\":{\"day\":2000000}}");
        String carolKey = created.path("key").asText();
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> r = gw.send(HttpRequest.newBuilder(URI.create(gw.base() + "/v1/chat/completions"))
                    .header("Authorization", "Bearer " + carolKey).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"gpt-a\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
                    .build());
            assertEquals(200, r.statusCode(), r.body());
        }
        WebClient holder = ConsolePages.browser(false);
        HtmlPage login = holder.getPage(gw.base() + "/my");
        HtmlForm form = login.getHtmlElementById("my-login");
        form.getInputByName("key").setValue(carolKey);
        HtmlPage my = form.getOneHtmlElementByAttribute("button", "type", "submit").click();
        List<String> limits = new ArrayList<>();
        for (DomNode line : my.querySelectorAll("#my-limits tr.limit")) {
            limits.add(text(line, "td") + "|" + text(line, ".limit-value") + "|" + text(line, ".used") + "|"
                    + text(line, ".remaining"));
        }
        assertEquals(2, limits.size(), limits.toString());
        assertEquals("Requests per minute|5|2|3", limits.get(0), "L-1's count of this key's two requests");
        assertTrue(limits.get(1).startsWith("Spend (last day)|$2.00|"), limits.get(1));
        holder.close();
    }

    private static List<String> rows(HtmlPage page, String dimension) {
        List<String> rows = new ArrayList<>();
        for (DomNode row : page.querySelectorAll("#by-" + dimension + " tr.usage-row")) {
            rows.add(String.join("|", text(row, ".name"), text(row, ".requests"), text(row, ".errors"), text(row, ".tokens"),
                    text(row, ".cache"), text(row, ".cost"), text(row, ".latency")));
        }
        return rows;
    }

    private static long sum(DomElement chart) {
        long sum = 0;
        for (DomNode bar : chart.querySelectorAll("rect.bar")) {
            sum += Long.parseLong(((DomElement) bar).getAttribute("data-value"));
        }
        return sum;
    }

    private static List<String> labels(DomElement chart, String selector) {
        List<String> labels = new ArrayList<>();
        chart.querySelectorAll(selector).forEach(t -> labels.add(t.getTextContent().trim()));
        return labels;
    }
}
