package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import org.htmlunit.WebClient;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** R-6 in the console: the recovery screen and its one-click operations, without JavaScript. */
class RecoveryPageIT {
    private Gateway gw;
    private FakeUpstream upstream;
    private WebClient web;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        gw.app.recovery().stopLoop();
        upstream = FakeUpstream.start();
        web = ConsolePages.browser(false);
    }

    @AfterEach
    void stop() {
        web.close();
        gw.close();
        upstream.close();
    }

    @Test
    void testNowRecoverAllAndTheProbeSwitchWorkFromTheRecoveryScreen() throws Exception {
        long id = gw.account("relay-a", upstream, "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"}]", null);
        dev.detour.recovery.RecoveryFixtureAccess.setStatus(id, "error");
        gw.app.snapshot().reload();

        HtmlPage home = ConsolePages.signIn(web, gw.base());
        assertNotNull(home.querySelector("nav a[href='/recovery']"), "the nav links the recovery screen");
        HtmlPage page = web.getPage(gw.base() + "/recovery");
        assertEquals(200, page.getWebResponse().getStatusCode());
        assertNotNull(page.getElementById("recovery-account-" + id), "the error account is listed");

        HtmlForm testForm = page.querySelector("#recovery-account-" + id + " form");
        page = testForm.getOneHtmlElementByAttribute("button", "type", "submit").click();
        assertTrue(page.getElementById("recovery-test-result").asNormalizedText().contains("Test passed"),
                page.asNormalizedText());
        assertEquals("upstream-sol", upstream.lastRequest().model(), "the first mapped model by default");
        assertEquals("ok", gw.accountState(id).path("status").asText());

        dev.detour.recovery.RecoveryFixtureAccess.setStatus(id, "error");
        page = page.getElementById("recover-all").click();
        assertTrue(page.getElementById("recovery-recovered").asNormalizedText().contains("1 account recovered"));
        assertEquals("ok", gw.accountState(id).path("status").asText());

        page = page.getElementById("toggle-probes").click();
        assertEquals("Paused", page.getElementById("probes-state").asNormalizedText());
        assertTrue(gw.admin("GET", "/recovery", null).path("probes_paused").asBoolean());
        page = page.getElementById("toggle-probes").click();
        assertEquals("Running", page.getElementById("probes-state").asNormalizedText());
        String audit = gw.admin("GET", "/audit?limit=10", null).toString();
        assertTrue(audit.contains("recovery.recover_all") && audit.contains("account.test"), audit);
    }
}
