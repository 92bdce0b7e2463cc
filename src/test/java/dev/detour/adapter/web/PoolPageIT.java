package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.testkit.Gateway;
import java.nio.file.Files;
import java.nio.file.Path;
import org.htmlunit.Page;
import org.htmlunit.WebClient;
import org.htmlunit.html.HtmlElement;
import org.htmlunit.html.HtmlFileInput;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** W-2 in the console: download the pool, paste a changed document, see the diff, apply it; en and zh. */
class PoolPageIT {
    private Gateway gw;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        gw.admin("POST", "/groups", "{\"name\":\"relays\",\"color\":\"#ff0000\"}");
    }

    @AfterEach
    void stop() {
        gw.close();
    }

    @Test
    void theOperatorDownloadsThePoolPreviewsAChangedDocumentAndAppliesIt() throws Exception {
        try (WebClient web = ConsolePages.browser(false)) {
            ConsolePages.signIn(web, gw.base());
            HtmlPage settings = web.getPage(gw.base() + "/settings");
            HtmlPage page = settings.getHtmlElementById("pool-link").click();
            Page download = page.getHtmlElementById("pool-download").click();
            String document = download.getWebResponse().getContentAsString();
            assertTrue(download.getWebResponse().getResponseHeaderValue("Content-Disposition").contains("attachment"));
            assertTrue(document.contains("\"detour_export\" : 1"), document);

            HtmlForm form = page.getHtmlElementById("pool-import-form");
            form.getTextAreaByName("document").setText(document.replace("#ff0000", "#00ff00"));
            page = page.getHtmlElementById("pool-preview").click();
            assertEquals("update", page.getHtmlElementById("pool-groups-relays").getAttribute("data-action"));
            assertTrue(page.getHtmlElementById("pool-groups-relays").asNormalizedText().contains("color"));
            assertEquals("unchanged", page.getHtmlElementById("pool-groups-default").getAttribute("data-action"));
            assertTrue(gw.admin("GET", "/groups", null).toString().contains("#ff0000"), "a preview changes nothing");

            page = page.getHtmlElementById("pool-apply").click();
            assertTrue(page.getHtmlElementById("pool-applied").isDisplayed());
            assertTrue(gw.admin("GET", "/groups", null).toString().contains("#00ff00"));
            assertNull(page.getElementById("pool-apply"), "applied: no second apply button");

            HtmlForm broken = page.getHtmlElementById("pool-import-form");
            broken.getTextAreaByName("document").setText(document.replace("\"#ff0000\"", "\"red\""));
            page = page.getHtmlElementById("pool-preview").click();
            assertEquals(422, page.getWebResponse().getStatusCode());
            assertTrue(page.getHtmlElementById("pool-error").asNormalizedText().contains("groups[1].color"),
                    page.getHtmlElementById("pool-error").asNormalizedText());

            HtmlPage zh = page.getAnchorByText("中文").click();
            zh = web.getPage(gw.base() + "/pool");
            assertEquals("导入 / 导出", zh.querySelector("main h1").getTextContent());
            assertFalse(zh.asXml().contains("passphrase\" value"), "no passphrase is ever written into the page");
        }
    }

    @Test
    void theOperatorChoosesAJsonFileInsteadOfPastingAndAppliesWhatItSays() throws Exception {
        gw.admin("POST", "/keys", "{\"name\":\"team-a\",\"rpm_limit\":30}");
        String document = gw.admin("GET", "/export", null).toString().replace("#ff0000", "#0000ff")
                .replace("\"team-a\"", "\"team-elsewhere\"");
        Path file = Files.createDirectories(Path.of("target", "pool-upload")).resolve("detour-pool.json");
        Files.writeString(file, document);
        try (WebClient web = ConsolePages.browser(false)) {
            ConsolePages.signIn(web, gw.base());
            HtmlPage page = web.getPage(gw.base() + "/pool");
            HtmlFileInput input = page.getHtmlElementById("pool-file");
            input.setFiles(file.toFile());
            page = page.getHtmlElementById("pool-preview").click();
            assertEquals(200, page.getWebResponse().getStatusCode(), page.asNormalizedText());
            assertEquals("update", page.getHtmlElementById("pool-groups-relays").getAttribute("data-action"));
            assertTrue(page.getHtmlElementById("pool-groups-relays").asNormalizedText().contains("color"));
            HtmlElement skipped = page.getHtmlElementById("pool-keys-team-elsewhere");
            assertEquals("skipped", skipped.getAttribute("data-action"));
            assertTrue(skipped.asNormalizedText().contains("No key of this name on this server"), skipped.asXml());
            assertTrue(gw.admin("GET", "/groups", null).toString().contains("#ff0000"), "a preview changes nothing");

            page = page.getHtmlElementById("pool-apply").click(); // the file's text came back in the text area
            assertTrue(page.getHtmlElementById("pool-applied").isDisplayed());
            assertTrue(gw.admin("GET", "/groups", null).toString().contains("#0000ff"));
        }
    }
}
