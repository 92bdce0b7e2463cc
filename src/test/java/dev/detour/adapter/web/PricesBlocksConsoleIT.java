package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.FakeUpstream;
import org.htmlunit.html.HtmlButton;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;
import org.htmlunit.html.HtmlSelect;
import org.junit.jupiter.api.Test;

/**
 * S-3 prices (with B-4's per-class cache prices) and S-10 block rules through their console pages: saved,
 * rejected with the error, removed.
 */
class PricesBlocksConsoleIT extends ConsoleCase {
    @Test
    void aPriceIsSavedAndABadOneIsRejectedWithItsCodeChangingNothing() throws Exception {
        HtmlPage page = web.getPage(gw.base() + "/prices");
        HtmlPage saved = submitPrice(page, "gpt-x", "2500000", "10000000");
        assertNotNull(saved.getElementById("price-gpt-x"), saved.asNormalizedText());
        assertEquals(2_500_000, price("gpt-x").path("input_micros_per_m").asLong());

        HtmlPage rejected = submitPrice(saved, "gpt-x", "cheap", "1");
        assertEquals(422, rejected.getWebResponse().getStatusCode());
        assertEquals("validation.price.input_micros_per_m",
                rejected.querySelector("#prices-error code").getTextContent());
        assertEquals(10_000_000, price("gpt-x").path("output_micros_per_m").asLong(), "nothing changed");
    }

    @Test
    void cachePricesAreSavedPerClassAndAnEmptyOneShowsAndStaysTheDefault() throws Exception {
        HtmlForm form = web.<HtmlPage>getPage(gw.base() + "/prices").getHtmlElementById("price-form");
        form.getInputByName("model").setValue("claude-x");
        form.getInputByName("input_micros_per_m").setValue("3000000");
        form.getInputByName("output_micros_per_m").setValue("15000000");
        form.getInputByName("cache_read_micros_per_m").setValue("300000");
        form.getInputByName("cache_write_1h_micros_per_m").setValue("6000000");
        HtmlPage saved = ((HtmlButton) form.querySelector("button[type=submit]")).click();

        JsonNode price = price("claude-x");
        assertEquals(300_000, price.path("cache_read_micros_per_m").asLong(), price.toString());
        assertTrue(price.path("cache_write_5m_micros_per_m").isNull(), "left empty: the default, " + price);
        assertEquals(6_000_000, price.path("cache_write_1h_micros_per_m").asLong(), price.toString());
        assertEquals("300000", saved.querySelector("#price-claude-x .cache-read").getTextContent());
        assertEquals("default", saved.querySelector("#price-claude-x .cache-write-5m").getTextContent());

        HtmlForm again = saved.getHtmlElementById("price-form");
        again.getInputByName("model").setValue("claude-x");
        again.getInputByName("input_micros_per_m").setValue("3000000");
        again.getInputByName("output_micros_per_m").setValue("15000000");
        again.getInputByName("cache_write_5m_micros_per_m").setValue("-1");
        HtmlPage rejected = ((HtmlButton) again.querySelector("button[type=submit]")).click();
        assertEquals("validation.price.cache_write_5m_micros_per_m",
                rejected.querySelector("#prices-error code").getTextContent());
        assertEquals(300_000, price("claude-x").path("cache_read_micros_per_m").asLong(), "nothing changed");
    }

    @Test
    void theAdminApiRefusesABadCachePriceWithItsFieldsCode() {
        String[][] cases = {
            {"\"cache_read_micros_per_m\":-5", "validation.price.cache_read_micros_per_m"},
            {"\"cache_write_5m_micros_per_m\":1.5", "validation.price.cache_write_5m_micros_per_m"},
            {"\"cache_write_1h_micros_per_m\":\"lots\"", "validation.price.cache_write_1h_micros_per_m"},
        };
        for (String[] c : cases) {
            JsonNode answer = gw.admin("PUT", "/prices", "{\"prices\":[{\"model\":\"m\",\"input_micros_per_m\":1,"
                    + "\"output_micros_per_m\":2," + c[0] + "}]}");
            assertEquals(c[1], answer.path("error").path("code").asText(), c[0]);
        }
        JsonNode defaults = gw.admin("PUT", "/prices", "{\"prices\":[{\"model\":\"m\",\"input_micros_per_m\":1,"
                + "\"output_micros_per_m\":2,\"cache_read_micros_per_m\":null}]}").path("prices").path(0);
        assertTrue(defaults.path("cache_read_micros_per_m").isNull(), defaults.toString());
    }

    @Test
    void aBlockRuleIsAddedWithItsOperatorAndRemoved() throws Exception {
        long accountId;
        try (FakeUpstream upstream = FakeUpstream.start()) {
            accountId = gw.account("relay-a", upstream, "[{\"from\":\"m\",\"to\":\"up-m\"}]", null);
        }
        HtmlPage page = web.getPage(gw.base() + "/blocks");
        HtmlForm form = page.getHtmlElementById("block-form");
        form.<HtmlSelect>getSelectByName("scope").setSelectedAttribute("account", true);
        form.getInputByName("value").setValue(Long.toString(accountId));
        form.getInputByName("reason").setValue("abuse report");
        HtmlPage added = ((HtmlButton) form.querySelector("button[type=submit]")).click();
        String table = added.getElementById("blocks-table").asNormalizedText();
        assertTrue(table.contains("abuse report") && table.contains("admin"), table);
        JsonNode block = gw.admin("GET", "/blocks", null).path("items").path(0);
        assertEquals(Long.toString(accountId), block.path("value").asText(), block.toString());

        HtmlPage removed = ((HtmlButton) added.querySelector("#block-" + block.path("id").asLong() + " button")).click();
        assertNull(removed.getElementById("block-" + block.path("id").asLong()));
        assertEquals(0, gw.admin("GET", "/blocks", null).path("items").size());
    }

    private static HtmlPage submitPrice(HtmlPage page, String model, String input, String output) throws Exception {
        HtmlForm form = page.getHtmlElementById("price-form");
        form.getInputByName("model").setValue(model);
        form.getInputByName("input_micros_per_m").setValue(input);
        form.getInputByName("output_micros_per_m").setValue(output);
        return ((HtmlButton) form.querySelector("button[type=submit]")).click();
    }

    private JsonNode price(String model) {
        for (JsonNode p : gw.admin("GET", "/prices", null).path("prices")) {
            if (model.equals(p.path("model").asText())) {
                return p;
            }
        }
        throw new AssertionError("no price for " + model);
    }
}
