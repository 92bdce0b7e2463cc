package dev.detour.adapter.web;

import static dev.detour.adapter.web.AccountsConsoleIT.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.detour.testkit.Gateway;
import java.util.List;
import org.htmlunit.WebClient;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.HtmlButton;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The console with JavaScript on (htmx 1.9.12 in HtmlUnit): the polled rows swap, model actions post over htmx, the countdown. */
class ConsoleScriptsIT {
    static final String TWO_MODELS = "[{\"from\":\"gpt-a\",\"to\":\"up-a\"},{\"from\":\"gpt-b\",\"to\":\"up-b\"}]";
    private Gateway gw;
    private WebClient web;
    private long id;

    @BeforeEach
    void start() throws Exception {
        gw = Gateway.start();
        id = PoolRows.account(gw, "relay-a", TWO_MODELS);
        web = ConsolePages.signedInScriptedBrowser(gw.base());
    }

    @AfterEach
    void stop() {
        web.close();
        gw.close();
    }

    @Test
    void thePolledFragmentSwapsOnlyTheRowsAndBringsTheNewBadges() throws Exception {
        HtmlPage page = web.getPage(gw.base() + "/accounts");
        DomElement table = page.getElementById("accounts-table");
        assertNull(page.getElementById("account-" + id).querySelector(".badge-orange"));

        PoolRows.modelRow(gw, id, "up-a", "ok", 1, 20, "slow down", null);
        PoolRows.execute("UPDATE accounts SET transient_failure_count = 1 WHERE id = " + id);
        // what the every-5s trigger does, fired now instead of waiting for it
        page.executeJavaScript("var rows = document.getElementById('account-rows');"
                + "htmx.ajax('GET', rows.getAttribute('hx-get'), {source: rows, target: rows, swap: 'outerHTML'});");

        assertSame(page, web.getCurrentWindow().getEnclosedPage(), "no page load");
        assertSame(table, page.getElementById("accounts-table"), "the table itself is never redrawn");
        DomElement row = page.getElementById("account-" + id);
        assertEquals("1 error", text(row, ".tag"));
        assertEquals("1 model unavailable", text(row, ".badge-orange"));
        assertEquals("every 5s", page.getElementById("account-rows").getAttribute("hx-trigger"), "keeps polling");
    }

    @Test
    void theCooldownBadgeCountsDownAndDisappearsWhenItExpires() throws Exception {
        PoolRows.execute("UPDATE accounts SET transient_failure_count = 1, next_retry_at = '" + PoolRows.at(gw, 30)
                + "', cooldown_until = '" + PoolRows.at(gw, 30) + "' WHERE id = " + id);
        HtmlPage page = web.getPage(gw.base() + "/accounts");
        assertEquals("Cooling 30s", text(page.getElementById("account-" + id), ".badge-cooldown"));

        Object seen = page.executeJavaScript("var el = document.querySelector('.badge-cooldown'); var s = Date.now();"
                + "el.setAttribute('data-start', String(s)); detourCountdown(s + 5000); var after5 = el.textContent;"
                + "detourCountdown(s + 30000); after5 + '|' + (document.querySelector('.badge-cooldown') === null);")
                .getJavaScriptResult();
        assertEquals("Cooling 25s|true", String.valueOf(seen));
    }

    @Test
    void pauseAndResumePostOverHtmxWithTheCsrfHeaderAndSwapTheModelStatusSection() throws Exception {
        HtmlPage page = web.getPage(gw.base() + "/accounts/" + id + "/edit?tab=failure");
        // only the hx-headers CSRF header can authorize these posts now
        page.executeJavaScript("document.querySelectorAll('#model-status input[name=_csrf]')"
                + ".forEach(function (i) { i.parentNode.removeChild(i); });");
        DomElement before = page.getElementById("model-status");

        HtmlPage after = button(page, "up-b", "button.model-pause").click();
        web.waitForBackgroundJavaScript(5_000);
        assertSame(page, after, "htmx swapped the section instead of loading a page");
        assertEquals(List.of("up-b:paused:0:-"), PoolRows.models(id));
        assertNotNull(button(page, "up-b", "button.model-resume"), "the section was re-rendered");
        assertNotNull(page.getElementById("model-status"));
        assertNotNull(before);

        button(page, "up-b", "button.model-resume").click();
        assertEquals(List.of(), PoolRows.models(id));
        // htmx swaps and settles on its own timers: let them run before reading the section
        web.waitForBackgroundJavaScript(5_000);
        assertEquals("Pause", button(page, "up-b", "button.model-pause").getTextContent().strip());
    }

    private static HtmlButton button(HtmlPage page, String model, String selector) {
        return (HtmlButton) page.querySelector("#model-status tr.model-row[data-model='" + model + "'] " + selector);
    }
}
