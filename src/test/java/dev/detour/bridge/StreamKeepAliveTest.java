package dev.detour.bridge;

import static dev.detour.bridge.StreamBridgeFixtureTest.translate;
import static dev.detour.core.account.EndpointFamily.CHAT_COMPLETIONS;
import static dev.detour.core.account.EndpointFamily.MESSAGES;
import static dev.detour.core.account.EndpointFamily.RESPONSES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.bridge.ClientStreamParse.Answer;
import dev.detour.bridge.ClientStreamParse.Event;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * B-2: an upstream that keeps a quiet stream open (an SSE comment, Anthropic's {@code ping}) keeps the bridged
 * client's stream open too, in the client's protocol — a Messages client gets a {@code ping} event, an OpenAI
 * client an SSE comment it skips — so a proxy's idle timeout in front does not cut a long pause; and nothing is
 * written before the answer started (that would commit the request to this upstream before its first frame).
 */
class StreamKeepAliveTest {
    private static final String CHAT = chunk("{\"role\":\"assistant\",\"content\":\"Hi\"}", "null")
            + ": keep-alive\n\n"
            + chunk("{\"content\":\" there\"}", "null")
            + chunk("{}", "\"stop\"") + "data: [DONE]\n\n";

    @Test
    void aChatUpstreamsCommentReachesAMessagesClientAsAPingBetweenTheTextEvents() {
        String out = new String(translate(CHAT_COMPLETIONS, MESSAGES, utf8(CHAT), 7), StandardCharsets.UTF_8);
        List<String> names = ClientStreamParse.events(out).stream().map(Event::name).toList();
        int ping = names.indexOf("ping");
        assertTrue(ping > names.indexOf("content_block_start") && ping < names.lastIndexOf("content_block_delta"), out);
        Answer heard = ClientStreamParse.read(MESSAGES, utf8(out));
        assertEquals("Hi there", heard.text());
        assertEquals(1, heard.terminals());
    }

    @Test
    void aChatUpstreamsCommentReachesAResponsesClientAsACommentItSkips() {
        String out = new String(translate(CHAT_COMPLETIONS, RESPONSES, utf8(CHAT), Integer.MAX_VALUE),
                StandardCharsets.UTF_8);
        assertTrue(out.contains("\n\n: keep-alive\n\n"), out);
        Answer heard = ClientStreamParse.read(RESPONSES, utf8(out));
        assertEquals("Hi there", heard.text());
        assertEquals(1, heard.terminals());
    }

    @Test
    void anAnthropicPingReachesAChatClientAsAComment() {
        String messages = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\","
                + "\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude\",\"content\":[],\"stop_reason\":null,"
                + "\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n"
                + "event: ping\ndata: {\"type\": \"ping\"}\n\n"
                + "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
                + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
                + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
                + "\"delta\":{\"type\":\"text_delta\",\"text\":\"Hello\"}}\n\n"
                + "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
                + "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
                + "\"usage\":{\"output_tokens\":2}}\n\n"
                + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
        String out = new String(translate(MESSAGES, CHAT_COMPLETIONS, utf8(messages), 5), StandardCharsets.UTF_8);
        assertEquals(1, out.split(": keep-alive\n\n", -1).length - 1, out);
        assertEquals("Hello", ClientStreamParse.read(CHAT_COMPLETIONS, utf8(out)).text());
    }

    @Test
    void aCommentBeforeTheAnswerStartedWritesNothing() {
        StreamBridge bridge = StreamBridge.between(CHAT_COMPLETIONS, MESSAGES, new StreamBridge.Options(true, 0));
        assertEquals(0, bridge.feed(utf8(": OPENROUTER PROCESSING\n\n: keep-alive\n\n")).length,
                "no byte to the client before the upstream's first frame");
        assertTrue(new String(bridge.feed(utf8(CHAT)), StandardCharsets.UTF_8).startsWith("event: message_start"));
    }

    private static String chunk(String delta, String finishReason) {
        return "data: {\"id\":\"chatcmpl-k\",\"object\":\"chat.completion.chunk\",\"created\":1741570283,"
                + "\"model\":\"relay-model\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":"
                + finishReason + "}]}\n\n";
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
