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
        Path file = upload("detour-pool.json", document);
        try (WebClient web = ConsolePages.browser(false)) {
            ConsolePages.signIn(web, gw.base());
            HtmlPage page = previewed(web, file);
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

    @Test
    void aFileOverTheOneMebibyteCapIsRefusedByTheFileFieldOnThePageAndByTheAdminApiAndChangesNothing()
            throws Exception {
        String document = gw.admin("GET", "/export", null).toString().replace("#ff0000", "#0000ff");
        // a valid document padded past 1 MiB with whitespace: only its size is wrong
        String oversize = document.substring(0, document.length() - 1) + " ".repeat(1024 * 1024 + 1) + "}";
        Path file = upload("detour-pool-oversize.json", oversize);
        try (WebClient web = ConsolePages.browser(false)) {
            ConsolePages.signIn(web, gw.base());
            HtmlPage page = previewed(web, file);
            assertEquals(422, page.getWebResponse().getStatusCode(), page.asNormalizedText());
            HtmlElement error = page.getHtmlElementById("pool-error");
            assertTrue(error.asNormalizedText().startsWith("file"), error.asNormalizedText());
            assertTrue(error.asNormalizedText().contains("at most 1 MiB"), error.asNormalizedText());
            assertTrue(error.asXml().contains("validation.import.file"), error.asXml());

            web.<HtmlPage>getPage(gw.base() + "/pool").getAnchorByText("中文").click();
            page = previewed(web, file);
            assertEquals(422, page.getWebResponse().getStatusCode());
            assertTrue(page.getHtmlElementById("pool-error").asNormalizedText().contains("最大 1 MiB"),
                    page.getHtmlElementById("pool-error").asNormalizedText());
        }
        var api = gw.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(gw.base()
                + "/admin/api/import?dry_run=false")).header("Authorization", "Bearer "
                + dev.detour.testkit.TestApp.ADMIN_TOKEN).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(oversize)).build());
        assertEquals(413, api.statusCode(), api.body());
        assertEquals("request.too_large", Gateway.read(api.body()).path("error").path("code").asText(), api.body());
        assertTrue(gw.admin("GET", "/groups", null).toString().contains("#ff0000"), "nothing was imported");
    }

    private static Path upload(String name, String text) throws Exception {
        Path file = Files.createDirectories(Path.of("target", "pool-upload")).resolve(name);
        Files.writeString(file, text);
        return file;
    }

    /** The /pool page after choosing {@code file} and asking for its preview. */
    private HtmlPage previewed(WebClient web, Path file) throws Exception {
        HtmlPage page = web.getPage(gw.base() + "/pool");
        HtmlFileInput input = page.getHtmlElementById("pool-file");
        input.setFiles(file.toFile());
        return page.getHtmlElementById("pool-preview").click();
    }
}
