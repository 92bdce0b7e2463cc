package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.fake.Reply;
import org.htmlunit.WebClient;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** E-1 route page in a browser (zh and en), and the console's key policy, prices and blocks pages (K-1, S-3, S-10). */
class MyRoutesIT {
    private Gateway gw;
    private FakeUpstream up;
    private WebClient web;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        up = FakeUpstream.start();
        web = ConsolePages.browser(false);
    }

    @AfterEach
    void stop() {
        web.close();
        gw.close();
        up.close();
    }

    private long account(String name, String group, int priority) {
        return gw.account(name, up, "[{\"from\":\"m\",\"to\":\"up-" + name + "\"}]", "{\"group\":\"" + group
                + "\",\"priority\":" + priority + ",\"failure_policy\":{\"retry_count\":0,\"cooldown_enabled\":true,"
                + "\"cooldown_seconds\":60}}");
    }

    private HtmlPage signInToMy(String key) throws Exception {
        return signInToMy(web, key);
    }

    private HtmlPage signInToMy(WebClient browser, String key) throws Exception {
        HtmlPage login = browser.getPage(gw.base() + "/my");
        HtmlForm form = login.getHtmlElementById("my-login");
        form.getInputByName("key").setValue(key);
        return form.getOneHtmlElementByAttribute("button", "type", "submit").click();
    }

    private static String state(HtmlPage page, long accountId) {
        DomElement row = page.getElementById("route-m-chat_completions-" + accountId);
        assertNotNull(row, "route row of account " + accountId + " in " + page.asNormalizedText());
        return row.getAttribute("data-state") + "|" + row.querySelector("td.state").getTextContent().trim()
                .replaceAll("\\s+", " ");
    }

    @Test
    void theRoutePageShowsEachRouteStateInEnglishAndChineseAndNeverAUrlOrSecret() throws Exception {
        gw.admin("POST", "/groups", "{\"name\":\"pricey\",\"ratio_ppm\":3000000}");
        gw.group("side");
        long failing = account("d", "default", 0);
        long good = account("a", "default", 1);
        long pricey = account("b", "pricey", 2);
        long blocked = account("c", "side", 3);
        gw.admin("POST", "/blocks", "{\"scope\":\"account\",\"value\":\"" + blocked + "\",\"reason\":\"abuse\"}");
        up.enqueue(Reply.openAiError(500, "boom", "server_error"));
        String key = gw.admin("POST", "/keys", "{\"name\":\"holder\",\"max_ratio_ppm\":2000000}").path("key").asText();
        assertEquals(200, new dev.detour.smart.SmartCalls(gw).chat(key, "m").statusCode());
        gw.events(1);

        HtmlPage en = signInToMy(key);
        assertEquals("/my", ConsolePages.path(en));
        assertEquals("available|available", state(en, good));
        assertTrue(state(en, failing).startsWith("unavailable|unavailable retry in "), state(en, failing));
        assertEquals("over_ceiling|over your price ceiling", state(en, pricey));
        assertEquals("blocked|disabled by the site", state(en, blocked));
        String request = en.getElementById("my-requests").getTextContent();
        assertTrue(request.contains("default / a") && request.contains("switched after a failure"), request);
        assertTrue(request.contains("default / d"), "the attempt chain names the failed route: " + request);
        String html = en.getWebResponse().getContentAsString();
        assertFalse(html.contains("127.0.0.1") || html.contains("sk-test") || html.contains(key), html);

        HtmlPage zh = en.getAnchorByText("中文").click();
        assertEquals("/my", ConsolePages.path(zh));
        assertEquals("available|当前可用", state(zh, good));
        assertTrue(state(zh, failing).startsWith("unavailable|暂不可用"), state(zh, failing));
        assertEquals("over_ceiling|超过你的价格上限", state(zh, pricey));
        assertEquals("blocked|站点已停用", state(zh, blocked));
        assertTrue(zh.getElementById("my-requests").getTextContent().contains("失败后切换线路"));

        HtmlPage out = ((HtmlForm) zh.getElementById("my-logout")).getOneHtmlElementByAttribute("button", "type",
                "submit").click();
        assertNotNull(out.getElementById("my-login"), "signed out");
    }

    @Test
    void eachModelSaysWhatServesNowAndWhatIsDownAndRequestsNameOnlyRoutesThatCouldHaveServed() throws Exception {
        long failing = account("d", "default", 0);
        account("a", "default", 1);
        gw.account("x", up, "[{\"from\":\"other\",\"to\":\"up-other\"}]", "{\"group\":\"default\"}");
        up.enqueue(Reply.openAiError(500, "boom", "server_error"));
        assertEquals(200, new dev.detour.smart.SmartCalls(gw).chat(gw.key(), "m").statusCode());
        gw.events(1);

        HtmlPage en = signInToMy(gw.key());
        String summary = en.getElementById("summary-m").asNormalizedText();
        assertTrue(summary.startsWith("Now served by default / a"), summary);
        assertTrue(summary.contains("default / d back in about ") && summary.contains(" UTC)"), summary);
        assertEquals(1, en.querySelectorAll("#model-m .family").size(), "one table: every endpoint has the same routes");
        assertNotNull(en.getElementById("route-m-chat_completions-" + failing));
        assertEquals("Spent: $0.00 (no spend limit)", en.getElementById("my-spend").asNormalizedText());
        String requests = en.getElementById("my-requests").asNormalizedText();
        assertTrue(requests.contains("default / d"), requests);
        assertFalse(requests.contains("default / x"), "x does not serve m, so it is no route not used: " + requests);
        DomElement when = en.querySelector("#my-requests time.local-time");
        assertTrue(when.getTextContent().endsWith(" UTC") && !when.getAttribute("datetime").isEmpty(), when.asXml());

        HtmlPage zh = en.getAnchorByText("中文").click();
        String zhSummary = zh.getElementById("summary-m").asNormalizedText();
        assertTrue(zhSummary.startsWith("当前由 default / a 提供服务") && zhSummary.contains("秒后恢复"), zhSummary);
    }

    @Test
    void aWrongKeyDoesNotSignInAndTheLoginFormNeedsItsCsrfToken() throws Exception {
        HtmlPage wrong = signInToMy("dtr-not-a-key");
        assertNotNull(wrong.getElementById("my-login-error"));
        org.htmlunit.WebRequest forged = new org.htmlunit.WebRequest(new java.net.URL(gw.base() + "/my/login"),
                org.htmlunit.HttpMethod.POST);
        forged.setRequestParameters(java.util.List.of(new org.htmlunit.util.NameValuePair("key", gw.key()),
                new org.htmlunit.util.NameValuePair("_csrf", "forged")));
        assertEquals(403, web.getPage(forged).getWebResponse().getStatusCode());
    }

    @Test
    void aKeyPolicyIsEditedInTheConsoleWithValidationErrorsThenUsedOnTheRoutePage() throws Exception {
        account("a", "default", 0);
        JsonNode created = gw.admin("POST", "/keys", "{\"name\":\"alice\",\"strategy\":\"price\"}");
        long id = created.path("id").asLong();
        ConsolePages.signIn(web, gw.base());
        HtmlPage policy = web.getPage(gw.base() + "/keys/" + id + "/policy");
        HtmlForm form = policy.getHtmlElementById("policy-form");
        form.getSelectByName("strategy").setSelectedAttribute("balanced", true);
        form.getInputByName("w_stability").setValue("50");
        form.getInputByName("w_price").setValue("50");
        form.getInputByName("w_latency").setValue("50");
        HtmlPage invalid = form.getOneHtmlElementByAttribute("button", "type", "submit").click();
        assertEquals(422, invalid.getWebResponse().getStatusCode());
        assertTrue(invalid.getElementById("policy-error").getTextContent()
                .contains("validation.key_policy.balanced_weights"));
        assertEquals("price", gw.admin("GET", "/keys/" + id, null).path("strategy").asText(), "nothing saved");

        HtmlForm again = invalid.getHtmlElementById("policy-form");
        again.getSelectByName("strategy").setSelectedAttribute("balanced", true);
        again.getInputByName("w_stability").setValue("50");
        again.getInputByName("w_price").setValue("40");
        again.getInputByName("w_latency").setValue("10");
        again.getInputByName("allowed_models").setValue("m");
        HtmlPage saved = again.getOneHtmlElementByAttribute("button", "type", "submit").click();
        assertNotNull(saved.getElementById("policy-saved"), saved.asNormalizedText());
        JsonNode stored = gw.admin("GET", "/keys/" + id, null);
        assertEquals("balanced", stored.path("strategy").asText());
        assertEquals(50, stored.path("balanced_weights").path("stability").asInt());
        assertEquals("m", stored.path("allowed_models").get(0).asText());

        HtmlPage rotated = ((HtmlForm) saved.getElementById("rotate-form")).getOneHtmlElementByAttribute("button",
                "type", "submit").click();
        String fresh = rotated.getElementById("new-key").getTextContent();
        assertTrue(fresh.startsWith("dtr-"));
        HtmlPage my = signInToMy(fresh);
        assertNotNull(my.getElementById("model-m"), my.asNormalizedText());
        try (WebClient other = ConsolePages.browser(false)) {
            assertNotNull(signInToMy(other, created.path("key").asText()).getElementById("my-login-error"),
                    "the old secret stopped working");
        }
    }

    @Test
    void aKeyCreatedInTheConsoleGetsItsPolicyAfterValidationErrorsAndItsSecretSignsInToTheRoutePage()
            throws Exception {
        gw.admin("POST", "/groups", "{\"name\":\"pricey\",\"ratio_ppm\":3000000}");
        long cheap = account("a", "default", 0);
        long pricey = account("b", "pricey", 1);
        ConsolePages.signIn(web, gw.base());
        HtmlForm create = ((HtmlPage) web.getPage(gw.base() + "/keys")).getHtmlElementById("key-form");
        create.getInputByName("name").setValue("carol");
        HtmlPage created = create.getOneHtmlElementByAttribute("button", "type", "submit").click();
        String secret = created.getElementById("created-key").getTextContent().trim();
        assertTrue(secret.startsWith("dtr-"), secret);
        DomElement row = created.getElementById("keys-table").querySelectorAll("tbody tr").stream()
                .map(n -> (DomElement) n).filter(r -> r.getTextContent().contains("carol")).findFirst().orElseThrow();
        HtmlPage policy = ((org.htmlunit.html.HtmlAnchor) row.querySelector("a.key-policy")).click();

        HtmlForm form = policy.getHtmlElementById("policy-form");
        form.getSelectByName("strategy").setSelectedAttribute("price", true);
        form.getInputByName("max_ratio_ppm").setValue("-5");
        form.getInputByName("allowed_models").setValue("m");
        HtmlPage invalid = form.getOneHtmlElementByAttribute("button", "type", "submit").click();
        assertEquals(422, invalid.getWebResponse().getStatusCode());
        assertTrue(invalid.getElementById("policy-error").getTextContent().contains("validation.key_policy.max_ratio_ppm"),
                invalid.getElementById("policy-error").getTextContent());
        HtmlForm again = invalid.getHtmlElementById("policy-form");
        again.getSelectByName("strategy").setSelectedAttribute("price", true);
        again.getInputByName("max_ratio_ppm").setValue("2000000");
        again.getInputByName("allowed_models").setValue("m");
        assertNotNull(((HtmlPage) again.getOneHtmlElementByAttribute("button", "type", "submit").click())
                .getElementById("policy-saved"));

        HtmlPage my = signInToMy(secret);
        assertEquals("unsampled|not sampled yet", state(my, cheap));
        assertEquals("over_ceiling|over your price ceiling", state(my, pricey), "the saved ceiling applies");
        assertTrue(my.getElementById("my-logout").getTextContent().contains("carol"));
    }

    @Test
    void pricesAndBlocksAreManagedInTheConsole() throws Exception {
        long a = account("a", "default", 0);
        ConsolePages.signIn(web, gw.base());
        HtmlPage prices = web.getPage(gw.base() + "/prices");
        HtmlForm pf = prices.getHtmlElementById("price-form");
        pf.getInputByName("model").setValue("up-a");
        pf.getInputByName("input_micros_per_m").setValue("1500000");
        pf.getInputByName("output_micros_per_m").setValue("3000000");
        HtmlPage listed = pf.getOneHtmlElementByAttribute("button", "type", "submit").click();
        assertTrue(listed.getElementById("price-up-a").getTextContent().contains("1500000"));
        assertEquals(1500000, gw.admin("GET", "/prices", null).path("prices").get(0).path("input_micros_per_m")
                .asLong());

        HtmlPage blocks = web.getPage(gw.base() + "/blocks");
        HtmlForm bf = blocks.getHtmlElementById("block-form");
        bf.getSelectByName("scope").setSelectedAttribute("account", true);
        bf.getInputByName("value").setValue(Long.toString(a));
        bf.getInputByName("reason").setValue("maintenance");
        HtmlPage withBlock = bf.getOneHtmlElementByAttribute("button", "type", "submit").click();
        assertTrue(withBlock.getElementById("blocks-table").getTextContent().contains("maintenance"));
        assertEquals(502, gw.chat("m").statusCode(), "the only route is blocked");
        HtmlPage bad = ((HtmlForm) withBlock.getElementById("block-form")).getOneHtmlElementByAttribute("button",
                "type", "submit").click();
        assertTrue(bad.getElementById("blocks-error").getTextContent().contains("validation.block_rule.value"));
    }
}
