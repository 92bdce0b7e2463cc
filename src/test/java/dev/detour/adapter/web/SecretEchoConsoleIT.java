package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.fake.FakeUpstream;
import dev.detour.fake.Reply;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** X-5 in the console: an upstream that echoes the account's key shows up on every page masked (HtmlUnit). */
class SecretEchoConsoleIT extends ConsoleCase {
    static final String KEY = "sk-test-abcdef0123456789wxyz";
    static final String MASKED = "sk-…wxyz";
    static final String ECHO = "{\"error\":{\"message\":\"Incorrect API key provided: " + KEY + "\",\"type\":"
            + "\"invalid_request_error\",\"code\":\"invalid_api_key\"}}";
    private FakeUpstream upstream;
    private long id;

    @BeforeEach
    void anAccountWhoseUpstreamEchoedItsKeyIn200() {
        upstream = FakeUpstream.start();
        id = gw.account("echo", upstream, "[{\"from\":\"gpt-x\",\"to\":\"up-x\"}]", "{\"api_key\":\"" + KEY
                + "\",\"failure_policy\":{\"retry_count\":0,\"cooldown_enabled\":true,\"cooldown_seconds\":30}}");
        upstream.enqueue(Reply.json(200, ECHO)); // a failure envelope: the upstream's message is kept as the last one
        assertEquals(502, gw.chat("gpt-x").statusCode());
    }

    @AfterEach
    void stopUpstream() {
        upstream.close();
    }

    @Test
    void theAccountsListTheHomePageAndTheDrawerShowTheUpstreamMessageMasked() throws Exception {
        for (String path : new String[] {"/accounts", "/", "/accounts/" + id + "/edit?tab=failure", "/requests"}) {
            String html = web.<HtmlPage>getPage(gw.base() + path).getWebResponse().getContentAsString();
            assertFalse(html.contains(KEY), path + " shows the key: " + html);
        }
        DomElement line = web.<HtmlPage>getPage(gw.base() + "/accounts").getElementById("account-" + id)
                .querySelector(".panel .model-line .message");
        assertNotNull(line, "the model's last failure is shown");
        assertEquals("Incorrect API key provided: " + MASKED, line.getTextContent().trim());
    }

    @Test
    void theTestButtonShowsTheUpstreamAnswerMasked() throws Exception {
        upstream.enqueue(Reply.json(401, ECHO));
        HtmlPage drawer = web.getPage(gw.base() + "/accounts/" + id + "/edit?tab=failure");

        HtmlPage tested = drawer.<DomElement>querySelector("button.model-test").click();

        String result = tested.getElementById("test-result").getTextContent();
        assertTrue(result.contains("HTTP 401"), result);
        assertTrue(result.contains("Incorrect API key provided: " + MASKED), result);
        assertFalse(tested.getWebResponse().getContentAsString().contains(KEY));
    }
}
