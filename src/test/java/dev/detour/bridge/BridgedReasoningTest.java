package dev.detour.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.account.EndpointFamily;
import org.junit.jupiter.api.Test;

/**
 * B-2: reasoning goes back to the protocol that made it unchanged, through a client of another
 * protocol, and never to a protocol that could not verify it.
 */
class BridgedReasoningTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final EndpointFamily CHAT = EndpointFamily.CHAT_COMPLETIONS;
    private static final EndpointFamily MESSAGES = EndpointFamily.MESSAGES;
    private static final EndpointFamily RESPONSES = EndpointFamily.RESPONSES;
    private static final String SIGNATURE = "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds7rt9QTdDi5hVrNNz6AA==";

    private static final String ANTHROPIC_ANSWER = "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude\","
            + "\"content\":[{\"type\":\"thinking\",\"thinking\":\"Call the tool.\",\"signature\":\"" + SIGNATURE + "\"},"
            + "{\"type\":\"redacted_thinking\",\"data\":\"EmwKAhgBEgy3va3p\"},"
            + "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"f\",\"input\":{}}],"
            + "\"stop_reason\":\"tool_use\",\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}";

    /** A Codex-style Responses client served by Anthropic: its next turn returns the output items as input. */
    @Test
    void anthropicThinkingComesBackUnchangedThroughAResponsesClient() throws Exception {
        JsonNode answer = Bridge.answer(RESPONSES, MESSAGES, JSON.readTree(ANTHROPIC_ANSWER), 0);
        ObjectNode next = JSON.createObjectNode().put("max_output_tokens", 5000);
        next.putObject("reasoning").put("effort", "low");
        ArrayNode input = next.putArray("input");
        input.addObject().put("role", "user").put("content", "go");
        answer.path("output").forEach(input::add);
        input.addObject().put("type", "function_call_output").put("call_id", "toolu_1").put("output", "done");

        JsonNode upstream = Bridge.request(RESPONSES, MESSAGES, next, "claude");
        JsonNode assistant = upstream.path("messages").path(1).path("content");
        assertEquals("{\"type\":\"thinking\",\"thinking\":\"Call the tool.\",\"signature\":\"" + SIGNATURE + "\"}",
                assistant.path(0).toString());
        assertEquals("{\"type\":\"redacted_thinking\",\"data\":\"EmwKAhgBEgy3va3p\"}", assistant.path(1).toString());
        assertEquals("tool_use", assistant.path(2).path("type").asText());
        assertEquals("enabled", upstream.path("thinking").path("type").asText()); // the signed block leads the turn
    }

    /** A Claude Code-style Messages client served by OpenAI Responses, its reasoning replayed statelessly. */
    @Test
    void openAiReasoningComesBackUnchangedThroughAMessagesClient() throws Exception {
        String responses = "{\"id\":\"resp_1\",\"status\":\"completed\",\"model\":\"o4\",\"output\":[{\"type\":\"reasoning\","
                + "\"id\":\"rs_9\",\"summary\":[{\"type\":\"summary_text\",\"text\":\"Plan\"}],\"encrypted_content\":\"gAAAAB==\"},"
                + "{\"type\":\"function_call\",\"id\":\"fc_1\",\"call_id\":\"call_1\",\"name\":\"f\",\"arguments\":\"{}\"}]}";
        JsonNode answer = Bridge.answer(MESSAGES, RESPONSES, JSON.readTree(responses), 0);
        String signature = answer.path("content").path(0).path("signature").asText();
        assertTrue(signature.startsWith("detour-bridged:"), signature);

        String next = "{\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":\"go\"},"
                + "{\"role\":\"assistant\",\"content\":" + answer.path("content") + "},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"call_1\",\"content\":\"done\"}]}]}";
        JsonNode upstream = Bridge.request(MESSAGES, RESPONSES, JSON.readTree(next), "o4");
        assertEquals("{\"type\":\"reasoning\",\"id\":\"rs_9\",\"summary\":[{\"type\":\"summary_text\",\"text\":\"Plan\"}],"
                + "\"encrypted_content\":\"gAAAAB==\"}", upstream.path("input").path(1).toString());
    }

    @Test
    void reasoningMadeElsewhereIsNeverSentToAnthropicAsIfAnthropicHadSignedIt() throws Exception {
        String next = "{\"max_tokens\":100,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024},\"messages\":["
                + "{\"role\":\"user\",\"content\":\"go\"},{\"role\":\"assistant\",\"content\":["
                + "{\"type\":\"thinking\",\"thinking\":\"Plan\",\"signature\":\"detour-bridged:responses:rs_9:gAAAAB==\"},"
                + "{\"type\":\"thinking\",\"thinking\":\"Shown only\",\"signature\":\"detour-bridged:none:\"},"
                + "{\"type\":\"tool_use\",\"id\":\"call_1\",\"name\":\"f\",\"input\":{}}]},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"call_1\",\"content\":\"done\"}]}]}";
        JsonNode toChat = Bridge.request(MESSAGES, CHAT, JSON.readTree(next), "gpt");
        assertFalse(toChat.toString().contains("detour-bridged"), toChat.toString());

        ObjectNode native_ = (ObjectNode) JSON.readTree(next);
        assertTrue(NativeHistory.stripBridgedReasoning(MESSAGES, native_));
        assertFalse(native_.toString().contains("detour-bridged"), native_.toString());
        assertEquals("tool_use", native_.path("messages").path(1).path("content").path(0).path("type").asText());
        // Anthropic wants its own signed block first in a tool-calling turn; there is none, so no thinking
        assertEquals("disabled", native_.path("thinking").path("type").asText());
    }

    @Test
    void aNativeHistoryKeepsItsOwnReasoningAndEverythingElse() throws Exception {
        String native_ = "{\"max_tokens\":100,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024},\"messages\":["
                + "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"go\",\"cache_control\":{\"type\":\"ephemeral\"}}]},"
                + "{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thinking\":\"Plan\",\"signature\":\"" + SIGNATURE + "\"},"
                + "{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"f\",\"input\":{}}]}]}";
        ObjectNode body = (ObjectNode) JSON.readTree(native_);
        assertFalse(NativeHistory.stripBridgedReasoning(MESSAGES, body));
        assertEquals(JSON.readTree(native_), body);

        ObjectNode responses = (ObjectNode) JSON.readTree("{\"input\":[{\"type\":\"reasoning\",\"id\":\"rs_1\",\"summary\":[],"
                + "\"encrypted_content\":\"gAAAAB==\"},{\"type\":\"reasoning\",\"id\":\"rs_2\",\"summary\":[],"
                + "\"encrypted_content\":\"detour-bridged:messages:" + SIGNATURE + "\"}]}");
        assertTrue(NativeHistory.stripBridgedReasoning(RESPONSES, responses));
        assertEquals(1, responses.path("input").size());
        assertEquals("rs_1", responses.path("input").path(0).path("id").asText());
    }

    @Test
    void aChatClientSeesReasoningAsReasoningContentAndCannotSendItBack() throws Exception {
        JsonNode chat = Bridge.answer(CHAT, MESSAGES, JSON.readTree(ANTHROPIC_ANSWER), 0);
        assertEquals("Call the tool.", chat.path("choices").path(0).path("message").path("reasoning_content").asText());
        String next = "{\"messages\":[{\"role\":\"user\",\"content\":\"go\"},"
                + "{\"role\":\"assistant\",\"content\":null,\"reasoning_content\":\"Call the tool.\","
                + "\"tool_calls\":[{\"id\":\"toolu_1\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]},"
                + "{\"role\":\"tool\",\"tool_call_id\":\"toolu_1\",\"content\":\"done\"}],\"reasoning_effort\":\"low\"}";
        JsonNode upstream = Bridge.request(CHAT, MESSAGES, JSON.readTree(next), "claude");
        assertEquals("[{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"f\",\"input\":{}}]",
                upstream.path("messages").path(1).path("content").toString());
        assertEquals("disabled", upstream.path("thinking").path("type").asText());
    }

    @Test
    void aSealWrapsAndUnwrapsToItsOrigin() {
        Part.Seal responses = new Part.Seal(RESPONSES, "rs_1:gAAAAB==", false);
        assertEquals(responses, BridgedReasoning.read(MESSAGES, BridgedReasoning.wrap(responses), false));
        Part.Seal redacted = new Part.Seal(MESSAGES, "EmwK", true);
        assertEquals(redacted, BridgedReasoning.read(RESPONSES, BridgedReasoning.wrap(redacted), false));
        assertEquals(new Part.Seal(MESSAGES, SIGNATURE, false), BridgedReasoning.read(MESSAGES, SIGNATURE, false));
        assertEquals(null, BridgedReasoning.read(MESSAGES, "detour-bridged:none:", false));
        assertEquals(null, BridgedReasoning.read(MESSAGES, "detour-bridged:unknown:x", false));
    }
}
