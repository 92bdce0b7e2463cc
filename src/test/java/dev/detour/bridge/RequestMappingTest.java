package dev.detour.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.detour.core.account.EndpointFamily;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** B-2: each request field's mapping between the protocols, one table or case at a time. */
class RequestMappingTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final EndpointFamily CHAT = EndpointFamily.CHAT_COMPLETIONS;
    private static final EndpointFamily MESSAGES = EndpointFamily.MESSAGES;
    private static final EndpointFamily RESPONSES = EndpointFamily.RESPONSES;
    private static final String HELLO_CHAT = "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]";
    private static final String HELLO_RESPONSES = "\"input\":\"hi\"";

    private static JsonNode translate(EndpointFamily client, EndpointFamily upstream, String body) throws Exception {
        return Bridge.request(client, upstream, JSON.readTree(body), "upstream-model");
    }

    @Test
    void theUpstreamModelIsTheOneDetourChoseNotTheClients() throws Exception {
        JsonNode out = translate(CHAT, MESSAGES, "{\"model\":\"gpt-4o\"," + HELLO_CHAT + "}");
        assertEquals("upstream-model", out.path("model").asText());
    }

    @ParameterizedTest(name = "{0} {1} → Messages max_tokens {2}")
    @CsvSource({
            "max_tokens, 300, 300",
            "max_completion_tokens, 500, 500"})
    void chatMaxTokensBecomeMessagesMaxTokens(String field, int value, int expected) throws Exception {
        JsonNode out = translate(CHAT, MESSAGES, "{\"" + field + "\":" + value + "," + HELLO_CHAT + "}");
        assertEquals(expected, out.path("max_tokens").asInt());
    }

    @Test
    void messagesAlwaysGetsMaxTokensEvenWhenTheClientGaveNone() throws Exception {
        assertEquals(ReasoningLevels.DEFAULT_MAX_TOKENS,
                translate(CHAT, MESSAGES, "{" + HELLO_CHAT + "}").path("max_tokens").asInt());
        assertEquals(ReasoningLevels.DEFAULT_MAX_TOKENS,
                translate(RESPONSES, MESSAGES, "{" + HELLO_RESPONSES + "}").path("max_tokens").asInt());
    }

    @Test
    void maxTokensTakeEachProtocolsName() throws Exception {
        String messages = "{\"max_tokens\":700,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        assertEquals(700, translate(MESSAGES, RESPONSES, messages).path("max_output_tokens").asInt());
        assertEquals(700, translate(MESSAGES, CHAT, messages).path("max_tokens").asInt());
        assertEquals(900, translate(RESPONSES, CHAT, "{\"max_output_tokens\":900," + HELLO_RESPONSES + "}")
                .path("max_tokens").asInt());
    }

    /** Effort → budget (with room below max_tokens) and budget → effort, as ReasoningLevels documents. */
    @ParameterizedTest(name = "effort {0} → budget {1}")
    @CsvSource({"minimal, 1024", "low, 4096", "medium, 10000", "high, 32000"})
    void reasoningEffortBecomesAThinkingBudget(String effort, int budget) throws Exception {
        JsonNode out = translate(CHAT, MESSAGES,
                "{\"max_tokens\":64000,\"reasoning_effort\":\"" + effort + "\"," + HELLO_CHAT + "}");
        assertEquals("enabled", out.path("thinking").path("type").asText());
        assertEquals(budget, out.path("thinking").path("budget_tokens").asInt());
    }

    @ParameterizedTest(name = "budget {0} → effort {1}")
    @CsvSource({"1024, low", "4095, low", "4096, medium", "15999, medium", "16000, high", "60000, high"})
    void aThinkingBudgetBecomesAReasoningEffort(int budget, String effort) throws Exception {
        String body = "{\"max_tokens\":64001,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":" + budget
                + "},\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        assertEquals(effort, translate(MESSAGES, CHAT, body).path("reasoning_effort").asText());
        assertEquals(effort, translate(MESSAGES, RESPONSES, body).path("reasoning").path("effort").asText());
    }

    @Test
    void adaptiveThinkingReadsItsEffortAndDisabledThinkingAsksForNone() throws Exception {
        String adaptive = "{\"max_tokens\":1000,\"thinking\":{\"type\":\"adaptive\"},\"output_config\":{\"effort\":\"high\"},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        assertEquals("high", translate(MESSAGES, RESPONSES, adaptive).path("reasoning").path("effort").asText());
        String disabled = "{\"max_tokens\":1000,\"thinking\":{\"type\":\"disabled\"},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        assertFalse(translate(MESSAGES, CHAT, disabled).has("reasoning_effort"));
        assertFalse(translate(MESSAGES, RESPONSES, disabled).has("reasoning"));
    }

    @ParameterizedTest(name = "max_tokens {0}, effort medium → {1}")
    @CsvSource({"20000, 10000", "10000, 5000", "2048, 1024", "2047, 0"})
    void aBudgetThatDoesNotFitBelowMaxTokensShrinksOrThinkingStaysOff(int maxTokens, int budget) throws Exception {
        JsonNode thinking = translate(CHAT, MESSAGES, "{\"max_tokens\":" + maxTokens
                + ",\"reasoning_effort\":\"medium\"," + HELLO_CHAT + "}").path("thinking");
        assertEquals(budget == 0 ? "disabled" : "enabled", thinking.path("type").asText());
        assertEquals(budget, thinking.path("budget_tokens").asInt());
    }

    @Test
    void withoutMaxTokensMessagesGetsRoomForTheBudgetAndTheAnswer() throws Exception {
        JsonNode out = translate(RESPONSES, MESSAGES, "{\"reasoning\":{\"effort\":\"high\"}," + HELLO_RESPONSES + "}");
        assertEquals(32000 + ReasoningLevels.DEFAULT_MAX_TOKENS, out.path("max_tokens").asInt());
        assertEquals(32000, out.path("thinking").path("budget_tokens").asInt());
    }

    @Test
    void reasoningModelsGetMaxCompletionTokensOnChat() throws Exception {
        JsonNode out = translate(RESPONSES, CHAT, "{\"max_output_tokens\":900,\"reasoning\":{\"effort\":\"low\"},"
                + HELLO_RESPONSES + "}");
        assertEquals(900, out.path("max_completion_tokens").asInt());
        assertFalse(out.has("max_tokens"));
    }

    @Test
    void aStreamToAChatUpstreamAsksForUsage() throws Exception {
        JsonNode out = translate(MESSAGES, CHAT,
                "{\"max_tokens\":10,\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertTrue(out.path("stream").asBoolean());
        assertTrue(out.path("stream_options").path("include_usage").asBoolean());
        assertTrue(translate(CHAT, RESPONSES, "{\"stream\":true," + HELLO_CHAT + "}").path("stream").asBoolean());
        assertTrue(translate(CHAT, MESSAGES, "{\"stream\":true," + HELLO_CHAT + "}").path("stream").asBoolean());
        assertFalse(translate(CHAT, MESSAGES, "{" + HELLO_CHAT + "}").has("stream"));
    }

    @Test
    void aChatStopStringBecomesMessagesStopSequences() throws Exception {
        JsonNode out = translate(CHAT, MESSAGES, "{\"stop\":\"END\"," + HELLO_CHAT + "}");
        assertEquals("[\"END\"]", out.path("stop_sequences").toString());
        JsonNode back = translate(MESSAGES, CHAT,
                "{\"max_tokens\":5,\"stop_sequences\":[\"a\",\"b\"],\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertEquals("[\"a\",\"b\"]", back.path("stop").toString());
    }

    @Test
    void temperatureAndTopPCarryAcross() throws Exception {
        JsonNode out = translate(RESPONSES, MESSAGES, "{\"temperature\":0.2,\"top_p\":0.8," + HELLO_RESPONSES + "}");
        assertEquals(0.2, out.path("temperature").asDouble());
        assertEquals(0.8, out.path("top_p").asDouble());
        JsonNode chat = translate(MESSAGES, CHAT, "{\"max_tokens\":5,\"temperature\":0.5,\"top_p\":0.7,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertEquals(0.5, chat.path("temperature").asDouble());
        assertEquals(0.7, chat.path("top_p").asDouble());
    }

    /** tool_choice: Chat/Responses string or function object ↔ Messages {type}. */
    @ParameterizedTest(name = "Chat {0} → Messages {1}")
    @CsvSource(delimiter = '|', value = {
            "\"auto\"|{\"type\":\"auto\"}",
            "\"none\"|{\"type\":\"none\"}",
            "\"required\"|{\"type\":\"any\"}",
            "{\"type\":\"function\",\"function\":{\"name\":\"f\"}}|{\"type\":\"tool\",\"name\":\"f\"}"})
    void toolChoiceMapsBothWays(String chatChoice, String messagesChoice) throws Exception {
        String tools = "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"parameters\":{\"type\":\"object\"}}}]";
        JsonNode messages = translate(CHAT, MESSAGES, "{" + tools + ",\"tool_choice\":" + chatChoice + "," + HELLO_CHAT + "}");
        assertEquals(JSON.readTree(messagesChoice), messages.path("tool_choice"));
        JsonNode back = translate(MESSAGES, CHAT, "{\"max_tokens\":5,\"tools\":[{\"name\":\"f\",\"input_schema\":{\"type\":\"object\"}}],"
                + "\"tool_choice\":" + messagesChoice + ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertEquals(JSON.readTree(chatChoice), back.path("tool_choice"));
    }

    @Test
    void noParallelToolCallsIsMessagesDisableParallelToolUse() throws Exception {
        String tools = "\"tools\":[{\"type\":\"function\",\"name\":\"f\",\"parameters\":{\"type\":\"object\"}}]";
        JsonNode out = translate(RESPONSES, MESSAGES, "{" + tools + ",\"parallel_tool_calls\":false," + HELLO_RESPONSES + "}");
        assertEquals(JSON.readTree("{\"type\":\"auto\",\"disable_parallel_tool_use\":true}"), out.path("tool_choice"));
        JsonNode back = translate(MESSAGES, RESPONSES, "{\"max_tokens\":5,\"tools\":[{\"name\":\"f\",\"input_schema\":{}}],"
                + "\"tool_choice\":{\"type\":\"auto\",\"disable_parallel_tool_use\":true},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertFalse(back.path("parallel_tool_calls").asBoolean(true));
    }

    @Test
    void toolsWithoutASchemaGetAnEmptyObjectSchemaAndResponsesToolsAreNotStrictUnlessAsked() throws Exception {
        JsonNode out = translate(CHAT, RESPONSES,
                "{\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"now\"}}]," + HELLO_CHAT + "}");
        JsonNode tool = out.path("tools").path(0);
        assertEquals("{\"type\":\"object\",\"properties\":{}}", tool.path("parameters").toString());
        assertFalse(tool.path("strict").asBoolean(true));
    }

    @Test
    void theEndUserIdMapsToMetadataUserIdAndBack() throws Exception {
        assertEquals("u-1", translate(CHAT, MESSAGES, "{\"user\":\"u-1\"," + HELLO_CHAT + "}")
                .path("metadata").path("user_id").asText());
        assertEquals("u-2", translate(MESSAGES, RESPONSES, "{\"max_tokens\":5,\"metadata\":{\"user_id\":\"u-2\"},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}").path("user").asText());
        JsonNode responses = translate(CHAT, RESPONSES, "{\"metadata\":{\"team\":\"a\"}," + HELLO_CHAT + "}");
        assertEquals("a", responses.path("metadata").path("team").asText());
    }

    @Test
    void systemAndDeveloperMessagesBecomeTheSystemPromptAndInstructions() throws Exception {
        String chat = "{\"messages\":[{\"role\":\"system\",\"content\":\"S\"},{\"role\":\"developer\",\"content\":\"D\"},"
                + "{\"role\":\"user\",\"content\":\"hi\"}]}";
        assertEquals("[{\"type\":\"text\",\"text\":\"S\"},{\"type\":\"text\",\"text\":\"D\"}]",
                translate(CHAT, MESSAGES, chat).path("system").toString());
        assertEquals("S\n\nD", translate(CHAT, RESPONSES, chat).path("instructions").asText());
        JsonNode fromMessages = translate(MESSAGES, CHAT, "{\"max_tokens\":5,\"system\":\"Be brief.\","
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertEquals("{\"role\":\"system\",\"content\":\"Be brief.\"}", fromMessages.path("messages").path(0).toString());
    }

    @Test
    void aResponsesUpstreamKeepsNothingAndReturnsItsReasoningEncrypted() throws Exception {
        JsonNode out = translate(CHAT, RESPONSES, "{\"reasoning_effort\":\"low\"," + HELLO_CHAT + "}");
        assertFalse(out.path("store").asBoolean(true));
        assertEquals("[\"reasoning.encrypted_content\"]", out.path("include").toString());
    }

    @Test
    void imagesTravelAsBase64OrUrlInEachProtocolsForm() throws Exception {
        String chat = "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\",\"image_url\":{\"url\":"
                + "\"data:image/gif;base64,R0lGOD\"}},{\"type\":\"image_url\",\"image_url\":{\"url\":\"https://x.test/a.png\"}}]}]}";
        JsonNode content = translate(CHAT, MESSAGES, chat).path("messages").path(0).path("content");
        assertEquals("{\"type\":\"base64\",\"media_type\":\"image/gif\",\"data\":\"R0lGOD\"}",
                content.path(0).path("source").toString());
        assertEquals("{\"type\":\"url\",\"url\":\"https://x.test/a.png\"}", content.path(1).path("source").toString());
        JsonNode responses = translate(CHAT, RESPONSES, chat).path("input").path(0).path("content");
        assertEquals("data:image/gif;base64,R0lGOD", responses.path(0).path("image_url").asText());
        assertEquals("https://x.test/a.png", responses.path(1).path("image_url").asText());
    }

    @Test
    void anAssistantTurnOfReasoningAloneIsLeftOutWhereReasoningCannotGo() throws Exception {
        String messages = "{\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"a\"},"
                + "{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thinking\":\"t\",\"signature\":\"Eq==\"}]},"
                + "{\"role\":\"user\",\"content\":\"b\"}]}";
        JsonNode chat = translate(MESSAGES, CHAT, messages);
        assertEquals("[{\"role\":\"user\",\"content\":\"a\"},{\"role\":\"user\",\"content\":\"b\"}]",
                chat.path("messages").toString());
        JsonNode responses = translate(MESSAGES, RESPONSES, messages);
        assertEquals(2, responses.path("input").size());
    }

    @Test
    void onlyTheThreeConversationProtocolsAreBridged() {
        for (EndpointFamily family : EndpointFamily.values()) {
            assertEquals(family == CHAT || family == MESSAGES || family == RESPONSES, Bridge.bridges(family), family.name());
        }
        assertThrows(IllegalArgumentException.class, () -> Bridge.request(
                EndpointFamily.EMBEDDINGS, CHAT, JSON.readTree("{\"input\":\"x\"}"), "m"));
    }
}
