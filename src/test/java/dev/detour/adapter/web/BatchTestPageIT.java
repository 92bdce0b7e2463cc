package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.fake.Bodies;
import dev.detour.fake.FakeUpstream;
import dev.detour.fake.Reply;
import dev.detour.testkit.Gateway;
import java.io.IOException;
import org.htmlunit.WebClient;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** W-3 in the console: start a batch test, watch its table fill, recover those that passed; en and zh. */
class BatchTestPageIT {
    private static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"},"
            + "{\"from\":\"glm-5.3\",\"to\":\"upstream-glm\"}]";
    private Gateway gw;
    private FakeUpstream upstream;
    private long good;
    private long bad;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        gw.app.recovery().stopLoop();
        upstream = FakeUpstream.start().handler(r -> r.header("authorization").contains("-good-")
                ? Reply.json(200, Bodies.chatCompletion(r.model(), "p"))
                : Reply.openAiError(500, "upstream exploded", "server_error"));
        good = gw.account("relay-good-1", upstream, MAPS, null);
        bad = gw.account("relay-bad-1", upstream, MAPS, null);
        // another model cooling: only "recover those that passed" (a full reactivation) clears it
        dev.detour.recovery.RecoveryFixtureAccess.coolingModel(gw, good, "upstream-glm");
        dev.detour.recovery.RecoveryFixtureAccess.coolingModel(gw, bad, "upstream-glm");
        gw.app.snapshot().reload();
    }

    @AfterEach
    void stop() {
        gw.close();
        upstream.close();
    }

    private static HtmlPage startBatch(WebClient web, String base) throws IOException {
        HtmlPage recovery = web.getPage(base + "/recovery");
        HtmlPage page = recovery.getHtmlElementById("batch-link").click();
        HtmlForm form = page.getHtmlElementById("batch-start");
        form.getInputByName("model").setValue("gpt-5.6-sol");
        return page.getHtmlElementById("batch-start-button").click();
    }

    @Test
    void theBatchScreenStartsATestShowsEachAccountsResultAndRecoversThoseThatPassedWithoutJavaScript()
            throws Exception {
        try (WebClient web = ConsolePages.browser(false)) {
            ConsolePages.signIn(web, gw.base());
            HtmlPage page = startBatch(web, gw.base());
            assertTrue(page.getUrl().getQuery().startsWith("batch="), page.getUrl().toString());
            String url = page.getUrl().toString();
            Gateway.await(() -> upstream.requestCount() == 2, "both tested");
            HtmlPage[] latest = {page};
            Gateway.await(() -> "true".equals((latest[0] = reload(web, url)).getHtmlElementById("batch-results")
                    .getAttribute("data-done")), "the batch reads as done");
            page = latest[0];
            assertEquals("passed", page.getHtmlElementById("batch-line-" + good).getAttribute("data-status"));
            assertEquals("failed", page.getHtmlElementById("batch-line-" + bad).getAttribute("data-status"));
            String badLine = page.getHtmlElementById("batch-line-" + bad).asNormalizedText();
            assertTrue(badLine.contains("HTTP 500") && badLine.contains("upstream exploded"), badLine);
            assertTrue(page.getHtmlElementById("batch-line-" + good).asNormalizedText().contains("upstream-sol"));
            assertTrue(page.getHtmlElementById("batch-summary").asNormalizedText().contains("1 passed, 1 failed"),
                    page.getHtmlElementById("batch-summary").asNormalizedText());

            page = page.getHtmlElementById("recover-passed").click();
            assertTrue(page.getHtmlElementById("batch-recovered").asNormalizedText().contains("1 account recovered"),
                    page.getWebResponse().getStatusCode() + " " + page.getWebResponse().getContentAsString());
            assertEquals(0, gw.accountState(good).path("models").size(), "the passed account's cooldown cleared");
            assertTrue(gw.accountState(bad).path("models").toString().contains("upstream-glm"),
                    "the failed one is left as it is");

            HtmlPage zh = page.getAnchorByText("中文").click();
            zh = web.getPage(url);
            assertEquals("批量测试", zh.querySelector("main h1").getTextContent());
            assertEquals("通过", zh.querySelector("#batch-line-" + good + " .tag").getTextContent());
            assertEquals("失败", zh.querySelector("#batch-line-" + bad + " .tag").getTextContent());
        }
    }

    private static HtmlPage reload(WebClient web, String url) {
        try {
            return web.getPage(url);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theResultsTableRefreshesItselfUntilTheBatchIsDone() throws Exception {
        try (WebClient web = ConsolePages.signedInScriptedBrowser(gw.base())) {
            HtmlPage page = startBatch(web, gw.base());
            Gateway.await(() -> {
                web.waitForBackgroundJavaScript(200);
                return "true".equals(page.getHtmlElementById("batch-results").getAttribute("data-done"));
            }, "htmx polled the table until the batch was done");
            assertNotNull(page.getHtmlElementById("recover-passed"), "the recover button appears once done");
            assertEquals("passed", page.getHtmlElementById("batch-line-" + good).getAttribute("data-status"));
        }
    }
}
