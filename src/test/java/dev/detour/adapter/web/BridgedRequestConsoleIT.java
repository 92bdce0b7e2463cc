package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.fake.FakeUpstream;
import dev.detour.fake.Reply;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.Test;

/** B-1 in the console: a request's attempt chain names the bridge each attempt went through (en and zh). */
class BridgedRequestConsoleIT extends ConsoleCase {
    @Test
    void theAttemptChainShowsWhichProtocolsTheBridgeJoined() throws Exception {
        try (FakeUpstream upstream = FakeUpstream.start()) {
            gw.account("relay", upstream, "[{\"from\":\"claude-x\",\"to\":\"up-chat\"}]", null); // Chat + Responses
            upstream.enqueue(Reply.json(200, fixture()));
            assertEquals(200, gw.post("/v1/messages", "{\"model\":\"claude-x\",\"max_tokens\":10,"
                    + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}").statusCode());
        }
        String id = gw.events(1).get(0).path("id").asText();

        HtmlPage detail = web.getPage(gw.base() + "/requests/" + id);

        assertEquals("client messages · upstream chat_completions",
                detail.querySelector("#request-summary .protocols").getTextContent());
        assertEquals("messages → chat_completions", detail.querySelector("#attempts .attempt .bridge")
                .getTextContent());
        web.addRequestHeader("Accept-Language", "zh-CN");
        HtmlPage zh = web.getPage(gw.base() + "/requests/" + id);
        assertEquals("协议桥", zh.querySelectorAll("#attempts th").get(7).getTextContent());
    }

    private static String fixture() throws IOException {
        try (InputStream in = BridgedRequestConsoleIT.class.getResourceAsStream(
                "/bridge/messages-to-chat/upstream-answer.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
