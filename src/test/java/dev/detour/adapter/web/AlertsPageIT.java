package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.testkit.AlertReceiver;
import java.nio.file.Files;
import java.nio.file.Path;
import org.htmlunit.html.DomNode;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;
import org.htmlunit.html.HtmlSelect;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** W-1 console: add a channel, send a test to a real receiver, read the delivery log; secrets never shown; zh too. */
class AlertsPageIT extends ConsoleCase {
    private static final String HOOK_TOKEN = "T00000000/B00000000/XXXXXXXXhookSecret99";
    private AlertReceiver receiver;

    @BeforeEach
    void startReceiver() {
        gw.app.alerts().stopLoop();
        receiver = AlertReceiver.start();
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    @Test
    void anOperatorAddsASlackChannelSendsATestAndSeesItInTheDeliveryLog() throws Exception {
        HtmlPage home = web.getPage(gw.base() + "/");
        HtmlPage page = home.getAnchorByText("Alerts").click();
        assertEquals("/alerts", ConsolePages.path(page));
        assertTrue(page.getElementById("channels-table").getTextContent().contains("No channel yet"));

        HtmlForm add = (HtmlForm) page.getElementById("add-channel");
        add.getInputByName("name").setValue("ops-slack");
        ((HtmlSelect) add.getSelectByName("kind")).setSelectedAttribute("slack", true);
        add.getInputByName("url").setValue(receiver.url("/services/" + HOOK_TOKEN));
        add.getInputByName("suppress_seconds").setValue("300");
        add.getInputsByValue("account.revoked").get(0).setChecked(true);
        HtmlPage added = page.getHtmlElementById("add-channel-submit").click();
        assertEquals(200, added.getWebResponse().getStatusCode(), added.asNormalizedText());

        DomNode row = added.querySelector("#channels-table tr.channel");
        assertEquals("ops-slack", row.querySelector(".name").getTextContent());
        assertEquals("account.revoked", row.querySelector(".events").getTextContent());
        assertTrue(row.querySelector(".target").getTextContent().contains("url …et99"),
                row.querySelector(".target").getTextContent());
        assertFalse(added.asXml().contains(HOOK_TOKEN), "the webhook URL is never shown back");

        HtmlPage tested = ((org.htmlunit.html.HtmlElement) row.querySelector("button.send-test")).click();
        assertTrue(tested.getElementById("test-result").getTextContent().contains("Test alert sent to ops-slack"),
                tested.getElementById("test-result").getTextContent());
        assertEquals(1, receiver.received().size());
        assertTrue(receiver.received().get(0).body().contains("Detour test alert"));
        DomNode delivery = tested.querySelector("#deliveries-table tr.delivery");
        assertEquals("test", delivery.querySelector(".event").getTextContent());
        assertEquals("Sent", delivery.querySelector(".status").getTextContent());
        Files.createDirectories(Path.of("target", "screenshots"));
        Files.writeString(Path.of("target", "screenshots", "alerts-page-en.html"), tested.asXml());

        HtmlPage chinese = tested.getAnchorByText("中文").click();
        assertEquals("告警", chinese.querySelector("main h1").getTextContent());
        assertEquals("已发送", chinese.querySelector("#deliveries-table tr.delivery .status").getTextContent());
        assertTrue(chinese.getElementById("add-channel").getTextContent().contains("添加渠道"));
    }

    @Test
    void anInvalidChannelIsRefusedWithItsReasonAndNothingIsStored() throws Exception {
        HtmlPage page = web.getPage(gw.base() + "/alerts");
        HtmlForm add = (HtmlForm) page.getElementById("add-channel");
        add.getInputByName("name").setValue("mail");
        ((HtmlSelect) add.getSelectByName("kind")).setSelectedAttribute("email", true);
        add.getInputByName("smtp_host").setValue("127.0.0.1");
        add.getInputByName("from").setValue("not-an-address");
        add.getInputByName("to").setValue("ops@example.test");
        web.getOptions().setThrowExceptionOnFailingStatusCode(false);
        HtmlPage refused = page.getHtmlElementById("add-channel-submit").click();
        assertEquals(422, refused.getWebResponse().getStatusCode());
        assertTrue(refused.getElementById("alerts-error").getTextContent().contains("from must be e-mail address"));
        assertEquals(0, refused.querySelectorAll("#channels-table tr.channel").size());
    }
}
