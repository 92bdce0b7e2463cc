package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.fake.FakeUpstream;
import dev.detour.fake.Reply;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.Test;

/** B-4 in the console: a request's page shows its normalised usage by class and both protocols. */
class RequestUsageConsoleIT extends ConsoleCase {
    @Test
    void aRequestsPageShowsItsUsageClassesAndTheClientAndUpstreamProtocols() throws Exception {
        try (FakeUpstream upstream = FakeUpstream.start()) {
            gw.account("claude", upstream, "[{\"from\":\"claude-x\",\"to\":\"up-claude\"}]",
                    "{\"platform\":\"anthropic\"}");
            upstream.enqueue(Reply.json(200, fixture("messages.buffered.json")));
            assertEquals(200, gw.post("/v1/messages", "{\"model\":\"claude-x\",\"max_tokens\":10,"
                    + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}").statusCode());
        }
        String id = gw.events(1).get(0).path("id").asText();

        HtmlPage detail = web.getPage(gw.base() + "/requests/" + id);

        assertEquals("client messages · upstream messages",
                detail.querySelector("#request-summary .protocols").getTextContent());
        assertEquals("in 12 · out 503 (reasoning 0) · cache read 1,800 · cache write 5 min 1,536 · 1 h 512",
                detail.querySelector("#request-summary .usage span").getTextContent());
    }

    private static String fixture(String name) throws IOException {
        try (InputStream in = RequestUsageConsoleIT.class.getResourceAsStream("/usage/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
