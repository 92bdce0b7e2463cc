package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.HtmlButton;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.Test;

/** U-5 groups (name, ratio, colour) and keys (shown once, disable, delete) through the console forms. */
class GroupsKeysConsoleIT extends ConsoleCase {
    @Test
    void createsAndEditsAGroupWithRatioAndColour() throws Exception {
        HtmlPage page = web.getPage(gw.base() + "/groups");
        HtmlForm form = page.getHtmlElementById("group-form");
        form.getInputByName("name").setValue("cheap");
        form.getInputByName("ratio").setValue("0.5");
        form.getInputByName("color").setValue("#00aa00");
        HtmlPage list = page.<HtmlButton>getHtmlElementById("group-save").click();
        assertTrue(list.asNormalizedText().contains("0.50×"), list.asNormalizedText());
        JsonNode cheap = group("cheap");
        assertEquals(500_000, cheap.path("ratio_ppm").asLong(), cheap.toString());
        assertEquals("#00aa00", cheap.path("color").asText());

        HtmlPage edit = web.getPage(gw.base() + "/groups/" + cheap.path("id").asLong());
        edit.<HtmlForm>getHtmlElementById("group-form").getInputByName("ratio").setValue("abc");
        HtmlPage invalid = edit.<HtmlButton>getHtmlElementById("group-save").click();
        assertEquals(422, invalid.getWebResponse().getStatusCode());
        assertTrue(invalid.querySelector("p.field-error[data-field='ratio_ppm']") != null);

        invalid.<HtmlForm>getHtmlElementById("group-form").getInputByName("ratio").setValue("1.25");
        invalid.<HtmlButton>getHtmlElementById("group-save").click();
        assertEquals(1_250_000, group("cheap").path("ratio_ppm").asLong());
    }

    @Test
    void aNewKeyIsShownOnceAndCanBeDisabledAndDeleted() throws Exception {
        HtmlPage page = web.getPage(gw.base() + "/keys");
        page.<HtmlForm>getHtmlElementById("key-form").getInputByName("name").setValue("alice");
        HtmlPage created = page.<HtmlButton>getHtmlElementById("key-create").click();
        String key = created.getElementById("created-key").getTextContent();
        assertTrue(key.startsWith("dtr-"), key);

        HtmlPage again = web.getPage(gw.base() + "/keys");
        assertNull(again.getElementById("created-key"));
        assertFalse(again.asXml().contains(key), "the key is never shown again");
        DomElement row = again.querySelector("#keys-table tbody tr");
        HtmlPage disabled = ((HtmlButton) row.querySelector("button.key-disable")).click();
        assertFalse(gw.admin("GET", "/keys", null).path("items").path(0).path("enabled").asBoolean());

        ((HtmlButton) disabled.querySelector("#keys-table button.key-delete")).click();
        assertEquals(0, gw.admin("GET", "/keys", null).path("items").size());
    }

    private JsonNode group(String name) {
        for (JsonNode g : gw.admin("GET", "/groups", null).path("items")) {
            if (g.path("name").asText().equals(name)) {
                return g;
            }
        }
        throw new AssertionError("no group " + name);
    }
}
