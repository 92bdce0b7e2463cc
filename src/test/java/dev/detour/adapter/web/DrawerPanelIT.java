package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.testkit.Gateway;
import org.htmlunit.WebClient;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.HtmlAnchor;
import org.htmlunit.html.HtmlButton;
import org.htmlunit.html.HtmlElement;
import org.htmlunit.javascript.host.event.KeyboardEvent;
import org.htmlunit.html.HtmlInput;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** U-4 with JavaScript on: the edit drawer opens as a side panel over the accounts page, its tabs and forms work inside it. */
class DrawerPanelIT {
    private Gateway gw;
    private WebClient web;
    private long id;
    private HtmlPage page;

    @BeforeEach
    void start() throws Exception {
        gw = Gateway.start();
        id = PoolRows.account(gw, "relay-a", ConsoleScriptsIT.TWO_MODELS);
        web = ConsolePages.signedInScriptedBrowser(gw.base());
        page = web.getPage(gw.base() + "/accounts");
    }

    @AfterEach
    void stop() {
        web.close();
        gw.close();
    }

    @Test
    void editOpensTheDrawerOverThePageWithFocusInsideAndEscClosesItAndGivesFocusBack() throws Exception {
        DomElement panel = openDrawer();
        assertSame(page, web.getCurrentWindow().getEnclosedPage(), "no page load: the drawer is loaded into the page");
        assertEquals("relay-a", panel.querySelector("#drawer-title").getTextContent().strip());
        assertNotNull(panel.querySelector("#form-basics"));
        assertEquals("drawer", page.getFocusedElement().getId(), "focus moves into the drawer");

        ((HtmlElement) page.getFocusedElement()).type(KeyboardEvent.DOM_VK_ESCAPE);
        web.waitForBackgroundJavaScript(5_000);
        assertTrue(panel.hasAttribute("hidden"), "Esc closes the drawer");
        assertEquals("", panel.getTextContent().strip());
        assertEquals("edit-" + id, page.getFocusedElement().getId(), "focus goes back to the edit link");

        page = web.getPage(gw.base() + "/accounts"); // a fresh page: HtmlUnit's htmx misses links in polled-in rows
        panel = openDrawer();
        ((HtmlAnchor) panel.querySelector("a.drawer-close")).click();
        web.waitForBackgroundJavaScript(5_000);
        assertTrue(panel.hasAttribute("hidden"), "the close button closes it too");
        assertSame(page, web.getCurrentWindow().getEnclosedPage(), "closing does not leave the page");
    }

    @Test
    void theFailureTabShowsModelStatusAndItsFormPostsWithCsrfAndRerendersErrorsInsideTheDrawer() throws Exception {
        DomElement panel = openDrawer();
        click(panel.querySelector("#tab-failure"));
        assertNotNull(panel.querySelector("#model-status tr.model-row[data-model='up-b']"), "模型状态 lists the models");
        DomElement tab = panel.querySelector("#tab-failure");
        assertEquals("page", tab.getAttribute("aria-current"));

        ((HtmlInput) panel.querySelector("#f-cooldown_seconds")).setValue("0");
        click(panel.querySelector("#save-failure"));
        DomElement error = panel.querySelector("p.field-error[data-field='failure_policy.cooldown_seconds']");
        assertNotNull(error, "the 422 is swapped into the drawer with the error next to its field");
        assertTrue(error.getTextContent().startsWith("Invalid failure policy"), error.getTextContent());
        assertFalse(panel.hasAttribute("hidden"));

        ((HtmlInput) panel.querySelector("#f-cooldown_seconds")).setValue("45");
        click(panel.querySelector("#save-failure"));
        assertEquals(45, gw.admin("GET", "/accounts/" + id, null).path("failure_policy").path("cooldown_seconds").asInt());
        assertNotNull(panel.querySelector("p.saved"), "saved, shown inside the drawer");
        assertSame(page, web.getCurrentWindow().getEnclosedPage());
    }

    @Test
    void theBasicsAndBreakerFormsSaveInsideTheDrawer() throws Exception {
        DomElement panel = openDrawer();
        ((HtmlInput) panel.querySelector("#f-priority")).setValue("7");
        click(panel.querySelector("#save-basics"));
        assertEquals(7, gw.admin("GET", "/accounts/" + id, null).path("priority").asInt());
        assertNotNull(panel.querySelector("p.saved"));

        click(panel.querySelector("#tab-breaker"));
        ((HtmlInput) panel.querySelector("input[name='breaker.enabled']")).setChecked(true);
        click(panel.querySelector("#save-breaker"));
        assertTrue(gw.admin("GET", "/accounts/" + id, null).path("breaker").path("enabled").asBoolean());
        assertNotNull(panel.querySelector("#form-breaker"), "still the breaker tab, still in the drawer");
    }

    private DomElement openDrawer() throws Exception {
        click(page.getElementById("edit-" + id));
        DomElement panel = page.getElementById("drawer-panel");
        assertFalse(panel.hasAttribute("hidden"), () -> "the side panel is shown: " + web.getCurrentWindow().getEnclosedPage().getUrl()
                + " " + panel.asXml() + page.getElementById("edit-" + id).asXml());
        return panel;
    }

    private void click(DomElement element) throws Exception {
        assertNotNull(element);
        if (element instanceof HtmlButton button) {
            button.click();
        } else {
            element.click();
        }
        // htmx swaps and settles on its own timers: let them run before reading the drawer
        web.waitForBackgroundJavaScript(5_000);
    }
}
