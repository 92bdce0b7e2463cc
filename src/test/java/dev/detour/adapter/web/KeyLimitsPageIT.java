package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.testkit.Gateway;
import org.htmlunit.WebClient;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** L-1 in the console's key policy page (en and zh): the limits are set, refused with their code, cleared. */
class KeyLimitsPageIT {
    private Gateway gw;
    private WebClient web;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        web = ConsolePages.browser(false);
    }

    @AfterEach
    void stop() {
        web.close();
        gw.close();
    }

    @Test
    void theLimitsAreSetOnThePolicyPageARefusedValueNamesItsCodeAndEmptyMeansNone() throws Exception {
        long id = gw.admin("POST", "/keys", "{\"name\":\"team\"}").path("id").asLong();
        ConsolePages.signIn(web, gw.base());
        HtmlPage page = web.getPage(gw.base() + "/keys/" + id + "/policy");
        assertTrue(page.getElementById("key-limits").getTextContent().contains("Requests per minute"));
        HtmlForm form = page.getHtmlElementById("policy-form");
        form.getInputByName("rpm_limit").setValue("-3");
        HtmlPage invalid = form.getOneHtmlElementByAttribute("button", "type", "submit").click();
        assertEquals(422, invalid.getWebResponse().getStatusCode());
        assertTrue(invalid.getElementById("policy-error").getTextContent().contains("validation.key_policy.rpm_limit"));

        HtmlForm again = invalid.getHtmlElementById("policy-form");
        again.getInputByName("rpm_limit").setValue("30");
        again.getInputByName("tpm_limit").setValue("50000");
        again.getInputByName("concurrency_limit").setValue("2");
        again.getInputByName("spend_day").setValue("5000000");
        HtmlPage saved = again.getOneHtmlElementByAttribute("button", "type", "submit").click();
        assertNotNull(saved.getElementById("policy-saved"), saved.asNormalizedText());
        JsonNode stored = gw.admin("GET", "/keys/" + id, null);
        assertEquals(30, stored.path("rpm_limit").asLong());
        assertEquals(50000, stored.path("tpm_limit").asLong());
        assertEquals(2, stored.path("concurrency_limit").asInt());
        assertEquals(5000000, stored.path("spend_windows").path("day").asLong());
        assertTrue(stored.path("spend_windows").path("week").isNull(), stored.toString());
        HtmlForm shown = saved.getHtmlElementById("policy-form");
        assertEquals("5000000", shown.getInputByName("spend_day").getValue());

        HtmlForm clear = saved.getHtmlElementById("policy-form");
        clear.getInputByName("rpm_limit").setValue("");
        clear.getOneHtmlElementByAttribute("button", "type", "submit").click();
        assertTrue(gw.admin("GET", "/keys/" + id, null).path("rpm_limit").isNull(), "empty = no limit");

        web.addRequestHeader("Accept-Language", "zh-CN,zh;q=0.9");
        HtmlPage zh = web.getPage(gw.base() + "/keys/" + id + "/policy");
        String limits = zh.getElementById("key-limits").getTextContent();
        assertTrue(limits.contains("每分钟请求数") && limits.contains("一天"), limits);
    }
}
