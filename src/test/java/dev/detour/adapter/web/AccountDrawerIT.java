package dev.detour.adapter.web;

import static dev.detour.adapter.web.AccountsConsoleIT.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.HtmlButton;
import org.htmlunit.html.HtmlCheckBoxInput;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlInput;
import org.htmlunit.html.HtmlPage;
import org.htmlunit.html.HtmlRadioButtonInput;
import org.htmlunit.html.HtmlSelect;
import org.junit.jupiter.api.Test;

/** U-4 edit drawer: create and edit through AccountAdmin, errors next to fields, 模型状态 actions (HtmlUnit, no JS). */
class AccountDrawerIT extends ConsoleCase {
    private static final String TWO_MODELS = "[{\"from\":\"gpt-a\",\"to\":\"up-a\"},{\"from\":\"gpt-b\",\"to\":\"up-b\"}]";

    @Test
    void createsAnAccountThroughTheFormThenEditsItAndShowsAValidationErrorNextToItsField() throws Exception {
        HtmlPage list = web.getPage(gw.base() + "/accounts");
        HtmlPage form = list.getHtmlElementById("account-new").click();
        HtmlForm basics = form.getHtmlElementById("form-basics");
        basics.getInputByName("name").setValue("relay-new");
        basics.<HtmlSelect>getSelectByName("platform").setSelectedAttribute("openai-compatible", true);
        basics.getInputByName("base_url").setValue("https://relay.example/v1");
        basics.getInputByName("api_key").setValue("sk-new-key-0123456789wxyz");
        basics.getInputsByName("map_from").get(0).setValue("gpt-x");
        basics.getInputsByName("map_to").get(0).setValue("up-x");
        basics.getSelectByName("group").setSelectedAttribute("default", true);
        basics.getInputByName("priority").setValue("3");
        HtmlPage saved = form.<HtmlButton>getHtmlElementById("save-basics").click();

        assertTrue(ConsolePages.path(saved).matches("/accounts/\\d+/edit\\?tab=basics&saved=1"), ConsolePages.path(saved));
        long id = Long.parseLong(ConsolePages.path(saved).split("/")[2]);
        JsonNode stored = gw.admin("GET", "/accounts/" + id, null);
        assertEquals("relay-new", stored.path("name").asText());
        assertEquals("up-x", stored.path("model_mappings").path(0).path("to").asText());
        assertEquals(3, stored.path("priority").asInt());
        assertEquals("sk-…wxyz", stored.path("api_key_hint").asText());
        assertTrue(((HtmlInput) saved.getElementById("f-key")).getValue().isEmpty(), "the key is write-only");

        HtmlForm edit = saved.getHtmlElementById("form-basics");
        edit.getInputByName("weight").setValue("0");
        edit.getInputByName("name").setValue("relay-renamed");
        HtmlPage invalid = saved.<HtmlButton>getHtmlElementById("save-basics").click();
        assertEquals(422, invalid.getWebResponse().getStatusCode());
        DomElement error = invalid.querySelector("p.field-error[data-field='weight']");
        assertTrue(error.getTextContent().contains("weight must be between 1 and 1000"), error.getTextContent());
        assertEquals("f-weight", ((DomElement) error.getPreviousElementSibling()).getId(), "right under its input");
        assertEquals("relay-renamed", ((HtmlInput) invalid.getElementById("f-name")).getValue(), "typed values kept");
        assertEquals("relay-new", gw.admin("GET", "/accounts/" + id, null).path("name").asText());

        invalid.<HtmlInput>getHtmlElementById("f-weight").setValue("7");
        invalid.<HtmlButton>getHtmlElementById("save-basics").click();
        stored = gw.admin("GET", "/accounts/" + id, null);
        assertEquals("relay-renamed", stored.path("name").asText());
        assertEquals(7, stored.path("weight").asInt());
        assertEquals("sk-…wxyz", stored.path("api_key_hint").asText(), "a blank key keeps the stored one");
        assertEquals(1, gw.app.snapshot().view().accounts().stream().filter(a -> a.name().equals("relay-renamed")).count(),
                "the pool snapshot sees the console's change at once");
    }

    @Test
    void aMissingNameOnCreateIsShownNextToTheNameField() throws Exception {
        HtmlPage form = web.getPage(gw.base() + "/accounts/new");
        HtmlForm basics = form.getHtmlElementById("form-basics");
        basics.getInputByName("name").setValue("  ");
        basics.getInputByName("api_key").setValue("sk-new-key-0123456789wxyz");
        basics.getSelectByName("group").setSelectedAttribute("default", true);
        basics.getInputByName("base_url").setValue("https://relay.example/v1");
        HtmlPage invalid = form.<HtmlButton>getHtmlElementById("save-basics").click();
        assertEquals(422, invalid.getWebResponse().getStatusCode());
        assertTrue(invalid.querySelector("p.field-error[data-field='name']") != null, invalid.asXml());
    }

    @Test
    void failurePolicyErrorsRenderNextToTheFieldAndValidValuesAreSaved() throws Exception {
        long id = PoolRows.account(gw, "relay-a", TWO_MODELS);
        HtmlPage page = web.getPage(gw.base() + "/accounts/" + id + "/edit?tab=failure");
        HtmlForm form = page.getHtmlElementById("form-failure");
        form.getInputByName("failure_policy.cooldown_seconds").setValue("0");
        HtmlPage invalid = page.<HtmlButton>getHtmlElementById("save-failure").click();
        DomElement error = invalid.querySelector("p.field-error[data-field='failure_policy.cooldown_seconds']");
        assertTrue(error.getTextContent().startsWith("Invalid failure policy"), error.getTextContent());
        assertEquals(10, gw.admin("GET", "/accounts/" + id, null).path("failure_policy").path("cooldown_seconds").asInt());

        invalid.<HtmlInput>getHtmlElementById("f-cooldown_seconds").setValue("45");
        ((HtmlForm) invalid.getHtmlElementById("form-failure")).<HtmlCheckBoxInput>getInputByName(
                "failure_policy.cooldown_enabled").setChecked(true);
        invalid.<HtmlButton>getHtmlElementById("save-failure").click();
        JsonNode policy = gw.admin("GET", "/accounts/" + id, null).path("failure_policy");
        assertEquals(45, policy.path("cooldown_seconds").asInt());
        assertTrue(policy.path("cooldown_enabled").asBoolean());
    }

    @Test
    void recoveryTimesAreShownNormalizedAfterSavingAndMissingTimesAreRefused() throws Exception {
        long id = PoolRows.account(gw, "relay-a", TWO_MODELS);
        HtmlPage page = web.getPage(gw.base() + "/accounts/" + id + "/edit?tab=recovery");
        HtmlForm form = page.getHtmlElementById("form-recovery");
        form.<HtmlRadioButtonInput>getRadioButtonsByName("recovery.mode").get(1).setChecked(true);
        form.getInputByName("recovery.times").setValue("");
        HtmlPage invalid = page.<HtmlButton>getHtmlElementById("save-recovery").click();
        assertTrue(invalid.querySelector("p.field-error[data-field='recovery.times']").getTextContent()
                .contains("at least one time"));

        invalid.<HtmlInput>getHtmlElementById("f-times").setValue("15:30, 3:00 03:00");
        HtmlPage saved = invalid.<HtmlButton>getHtmlElementById("save-recovery").click();
        assertEquals("03:00, 15:30", saved.<HtmlInput>getHtmlElementById("f-times").getValue());
        assertEquals("[\"03:00\",\"15:30\"]", gw.admin("GET", "/accounts/" + id, null).path("recovery").path("times").toString());

        HtmlForm again = saved.getHtmlElementById("form-recovery");
        again.<HtmlRadioButtonInput>getRadioButtonsByName("recovery.mode").get(2).setChecked(true);
        again.getInputByName("recovery.probe_interval_minutes").setValue("2000");
        HtmlPage badInterval = saved.<HtmlButton>getHtmlElementById("save-recovery").click();
        assertTrue(badInterval.querySelector("p.field-error[data-field='recovery.probe_interval_minutes']") != null);
    }

    @Test
    void nativeProtocolsAreChosenInTheBasicsTabAndNoneCheckedIsThePlatformDefault() throws Exception {
        // B-1: one box per protocol; a default account shows none checked and reads as its platform's
        long id = PoolRows.account(gw, "relay-a", TWO_MODELS);
        HtmlPage page = web.getPage(gw.base() + "/accounts/" + id + "/edit?tab=basics");
        HtmlForm form = page.getHtmlElementById("form-basics");
        assertTrue(page.asNormalizedText().contains("Native protocols"), page.asNormalizedText());
        for (String box : List.of("protocol.chat_completions", "protocol.responses", "protocol.messages")) {
            assertTrue(!form.<HtmlCheckBoxInput>getInputByName(box).isChecked(), box);
        }
        form.<HtmlCheckBoxInput>getInputByName("protocol.chat_completions").setChecked(true);
        form.<HtmlCheckBoxInput>getInputByName("protocol.messages").setChecked(true);
        HtmlPage saved = page.<HtmlButton>getHtmlElementById("save-basics").click();
        assertEquals("[\"chat_completions\",\"messages\"]",
                gw.admin("GET", "/accounts/" + id, null).path("protocols").toString());
        HtmlForm again = saved.getHtmlElementById("form-basics");
        assertTrue(again.<HtmlCheckBoxInput>getInputByName("protocol.messages").isChecked());
        again.<HtmlCheckBoxInput>getInputByName("protocol.chat_completions").setChecked(false);
        again.<HtmlCheckBoxInput>getInputByName("protocol.messages").setChecked(false);
        saved.<HtmlButton>getHtmlElementById("save-basics").click();
        assertEquals("[\"chat_completions\",\"responses\"]",
                gw.admin("GET", "/accounts/" + id, null).path("protocols").toString());

        web.addRequestHeader("Accept-Language", "zh-CN");
        HtmlPage zh = web.getPage(gw.base() + "/accounts/" + id + "/edit?tab=basics");
        assertTrue(zh.asNormalizedText().contains("原生协议"), zh.asNormalizedText());
    }

    @Test
    void breakerAndBackoffAreSavedThroughTheBreakerTab() throws Exception {
        long id = PoolRows.account(gw, "relay-a", TWO_MODELS);
        HtmlPage page = web.getPage(gw.base() + "/accounts/" + id + "/edit?tab=breaker");
        HtmlForm form = page.getHtmlElementById("form-breaker");
        form.<HtmlCheckBoxInput>getInputByName("breaker.enabled").setChecked(true);
        form.getInputByName("breaker.ladder_seconds").setValue("60, 120");
        form.getSelectByName("backoff.mode").setSelectedAttribute("exponential", true);
        page.<HtmlButton>getHtmlElementById("save-breaker").click();
        JsonNode stored = gw.admin("GET", "/accounts/" + id, null);
        assertTrue(stored.path("breaker").path("enabled").asBoolean(), stored.toString());
        assertEquals("[60,120]", stored.path("breaker").path("ladder_seconds").toString());
        assertEquals("exponential", stored.path("backoff").path("mode").asText());
    }

    @Test
    void theAnthropicBetaPolicyIsSavedThroughTheCompatibilityTabInBothLanguagesAndABadFlagIsShownAtItsField()
            throws Exception {
        long id = PoolRows.account(gw, "relay-a", TWO_MODELS);
        web.addRequestHeader("Accept-Language", "zh-CN");
        HtmlPage zh = web.getPage(gw.base() + "/accounts/" + id + "/edit?tab=compat");
        assertTrue(zh.getHtmlElementById("tab-compat").getTextContent().contains("兼容"));
        HtmlForm form = zh.getHtmlElementById("form-compat");
        assertEquals("去掉列出的标志", form.getSelectByName("anthropic_beta.mode").getOptionByValue("strip").getText());
        assertEquals("pass", form.getSelectByName("anthropic_beta.mode").getSelectedOptions().get(0).getValueAttribute());
        form.getSelectByName("anthropic_beta.mode").setSelectedAttribute("strip", true);
        form.getInputByName("anthropic_beta.flags").setValue("context-1m-2025-08-07, interleaved-thinking-2025-05-14");
        zh.<HtmlButton>getHtmlElementById("save-compat").click();
        JsonNode stored = gw.admin("GET", "/accounts/" + id, null);
        assertEquals("strip", stored.path("anthropic_beta").path("mode").asText(), stored.toString());
        assertEquals("[\"context-1m-2025-08-07\",\"interleaved-thinking-2025-05-14\"]",
                stored.path("anthropic_beta").path("flags").toString());

        web.addRequestHeader("Accept-Language", "en");
        HtmlPage en = web.getPage(gw.base() + "/accounts/" + id + "/edit?tab=compat");
        assertTrue(en.getHtmlElementById("tab-compat").getTextContent().contains("Compatibility"));
        HtmlForm again = en.getHtmlElementById("form-compat");
        assertEquals("context-1m-2025-08-07, interleaved-thinking-2025-05-14",
                again.getInputByName("anthropic_beta.flags").getValueAttribute(), "the saved flags shown back");
        again.getInputByName("anthropic_beta.flags").setValue("bad\"flag");
        HtmlPage refused = en.<HtmlButton>getHtmlElementById("save-compat").click();
        assertTrue(refused.querySelector("p.field-error[data-field='anthropic_beta.flags']") != null,
                refused.asNormalizedText());
    }

    @Test
    void theBridgeReasoningBoxIsOnByDefaultAndSavedThroughTheCompatibilityTabInBothLanguages() throws Exception {
        long id = PoolRows.account(gw, "relay-a", TWO_MODELS);
        web.addRequestHeader("Accept-Language", "zh-CN");
        HtmlPage zh = web.getPage(gw.base() + "/accounts/" + id + "/edit?tab=compat");
        HtmlForm form = zh.getHtmlElementById("form-compat");
        HtmlCheckBoxInput box = form.getInputByName("bridge_reasoning");
        assertTrue(box.isChecked(), "on by default");
        assertTrue(zh.asNormalizedText().contains("通过协议转换时发送推理参数"), zh.asNormalizedText());
        box.setChecked(false);
        zh.<HtmlButton>getHtmlElementById("save-compat").click();
        JsonNode stored = gw.admin("GET", "/accounts/" + id, null);
        assertEquals(false, stored.path("bridge_reasoning").asBoolean(true), stored.toString());
        assertEquals("pass", stored.path("anthropic_beta").path("mode").asText(), "the beta policy is unchanged");

        web.addRequestHeader("Accept-Language", "en");
        HtmlPage en = web.getPage(gw.base() + "/accounts/" + id + "/edit?tab=compat");
        assertTrue(en.asNormalizedText().contains("Send reasoning parameters through the bridge"), en.asNormalizedText());
        HtmlCheckBoxInput again = en.<HtmlForm>getHtmlElementById("form-compat").getInputByName("bridge_reasoning");
        assertEquals(false, again.isChecked(), "the saved choice shown back");
        again.setChecked(true);
        en.<HtmlButton>getHtmlElementById("save-compat").click();
        assertEquals(true, gw.admin("GET", "/accounts/" + id, null).path("bridge_reasoning").asBoolean(false));
    }

    @Test
    void modelStatusListsNeverFailedModelsAndPauseResumeClearChangeTheRows() throws Exception {
        long id = PoolRows.account(gw, "relay-a", TWO_MODELS);
        PoolRows.modelRow(gw, id, "up-a", "ok", 2, 30, "slow", null);
        HtmlPage page = web.getPage(gw.base() + "/accounts/" + id + "/edit?tab=failure");
        assertEquals(List.of("up-a", "up-b"), page.querySelectorAll("#model-status tr.model-row").stream()
                .map(r -> ((DomElement) r).getAttribute("data-model")).toList());
        // R-4 is wired: every known model, failed or not, offers a connectivity test
        assertEquals(2, page.querySelectorAll("#model-status button.model-test").size());

        page = click(page, "up-b", "button.model-pause");
        assertEquals(List.of("up-a:ok:2:cooling", "up-b:paused:0:-"), PoolRows.models(id));
        page = click(page, "up-a", "button.model-clear");
        assertEquals(List.of("up-b:paused:0:-"), PoolRows.models(id));
        page = click(page, "up-b", "button.model-resume");
        assertEquals(List.of(), PoolRows.models(id), "a resumed row without a failure trace is deleted");
        assertEquals("Healthy", text(row(page, "up-b"), ".model-state .tag"));
        assertTrue(PoolRows.strings("SELECT action FROM audit_log ORDER BY id").containsAll(
                List.of("model.pause", "model.clear", "model.resume")));
    }

    @Test
    void clearAllOnlyTouchesRowsWithSomethingToClear() throws Exception {
        long id = PoolRows.account(gw, "relay-a", TWO_MODELS);
        PoolRows.modelRow(gw, id, "up-a", "ok", 2, 30, "slow", null);
        PoolRows.modelRow(gw, id, "up-b", "paused", 1, 30, "was failing", null);
        PoolRows.modelRow(gw, id, "up-c", "error", 9, null, "bad", null);
        PoolRows.modelRow(gw, id, "up-healthy", "ok", 0, null, null, null);
        HtmlPage page = web.getPage(gw.base() + "/accounts/" + id + "/edit?tab=failure");
        page.<HtmlButton>getHtmlElementById("clear-all").click();
        assertEquals(List.of("up-b:paused:1:cooling", "up-healthy:ok:0:-"), PoolRows.models(id));
    }

    private static HtmlPage click(HtmlPage page, String model, String button) throws Exception {
        return ((HtmlButton) row(page, model).querySelector(button)).click();
    }

    private static DomElement row(HtmlPage page, String model) {
        return page.querySelector("#model-status tr.model-row[data-model='" + model + "']");
    }
}
