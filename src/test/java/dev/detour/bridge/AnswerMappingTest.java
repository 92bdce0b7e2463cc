package dev.detour.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.usage.TokenUsage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** B-2: each field of a buffered answer between the protocols: stop reasons, refusals, usage, ids. */
class AnswerMappingTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final EndpointFamily CHAT = EndpointFamily.CHAT_COMPLETIONS;
    private static final EndpointFamily MESSAGES = EndpointFamily.MESSAGES;
    private static final EndpointFamily RESPONSES = EndpointFamily.RESPONSES;

    private static JsonNode answer(EndpointFamily client, EndpointFamily upstream, String body) throws Exception {
        return Bridge.answer(client, upstream, JSON.readTree(body), 1764600000L);
    }

    private static String messagesAnswer(String stopReason, String content) {
        return "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude\",\"content\":" + content
                + ",\"stop_reason\":\"" + stopReason + "\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}";
    }

    @ParameterizedTest(name = "Messages {0} → Chat {1}, Responses {2}/{3}")
    @CsvSource({
            "end_turn, stop, completed, ",
            "max_tokens, length, incomplete, max_output_tokens",
            "stop_sequence, stop, completed, ",
            "tool_use, tool_calls, completed, ",
            "refusal, content_filter, completed, ",
            "pause_turn, stop, completed, "})
    void messagesStopReasonsInTheOpenAiProtocols(String stopReason, String finishReason, String status,
            String incomplete) throws Exception {
        String body = messagesAnswer(stopReason, "[{\"type\":\"text\",\"text\":\"x\"}]");
        assertEquals(finishReason, answer(CHAT, MESSAGES, body).path("choices").path(0).path("finish_reason").asText());
        JsonNode responses = answer(RESPONSES, MESSAGES, body);
        assertEquals(status, responses.path("status").asText());
        assertEquals(incomplete == null ? "" : incomplete,
                responses.path("incomplete_details").path("reason").asText(""));
    }

    @ParameterizedTest(name = "Chat {0} → Messages {1}")
    @CsvSource({"stop, end_turn", "length, max_tokens", "tool_calls, tool_use", "content_filter, refusal"})
    void chatFinishReasonsInMessages(String finishReason, String stopReason) throws Exception {
        String body = "{\"id\":\"chatcmpl-1\",\"model\":\"gpt\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                + "\"content\":\"x\"},\"finish_reason\":\"" + finishReason + "\"}]}";
        assertEquals(stopReason, answer(MESSAGES, CHAT, body).path("stop_reason").asText());
    }

    @Test
    void aStopSequenceIsNamedOnlyWhenItEndedTheAnswer() throws Exception {
        String body = messagesAnswer("stop_sequence", "[{\"type\":\"text\",\"text\":\"x\"}]")
                .replace("\"stop_sequence\":null", "\"stop_sequence\":\"END\"");
        JsonNode roundTrip = answer(MESSAGES, MESSAGES, body);
        assertEquals("stop_sequence", roundTrip.path("stop_reason").asText());
        assertEquals("END", roundTrip.path("stop_sequence").asText());
    }

    @Test
    void aResponsesIncompleteAnswerForContentFilterStaysAContentFilter() throws Exception {
        String body = "{\"id\":\"resp_1\",\"status\":\"incomplete\",\"incomplete_details\":{\"reason\":\"content_filter\"},"
                + "\"model\":\"gpt\",\"output\":[]}";
        assertEquals("content_filter", answer(CHAT, RESPONSES, body).path("choices").path(0).path("finish_reason").asText());
        assertEquals("refusal", answer(MESSAGES, RESPONSES, body).path("stop_reason").asText());
    }

    @Test
    void anOpenAiRefusalIsAMessagesRefusalAndBack() throws Exception {
        String chat = "{\"id\":\"chatcmpl-1\",\"model\":\"gpt\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                + "\"content\":null,\"refusal\":\"I can't help with that.\"},\"finish_reason\":\"stop\"}]}";
        JsonNode messages = answer(MESSAGES, CHAT, chat);
        assertEquals("refusal", messages.path("stop_reason").asText());
        assertEquals("I can't help with that.", messages.path("content").path(0).path("text").asText());

        JsonNode backToChat = answer(CHAT, MESSAGES, messages.toString());
        assertEquals("I can't help with that.", backToChat.path("choices").path(0).path("message").path("refusal").asText());
        assertTrue(backToChat.path("choices").path(0).path("message").path("content").isNull());

        JsonNode responses = answer(RESPONSES, MESSAGES, messages.toString());
        assertEquals("{\"type\":\"refusal\",\"refusal\":\"I can't help with that.\"}",
                responses.path("output").path(0).path("content").path(0).toString());
    }

    @Test
    void usageIsNormalisedThenWrittenInTheClientsConvention() throws Exception {
        String messages = messagesAnswer("end_turn", "[]").replace("{\"input_tokens\":1,\"output_tokens\":1}",
                "{\"input_tokens\":100,\"cache_read_input_tokens\":900,\"cache_creation_input_tokens\":50,\"output_tokens\":70}");
        JsonNode chat = answer(CHAT, MESSAGES, messages);
        assertEquals(1050, chat.path("usage").path("prompt_tokens").asInt()); // OpenAI's prompt includes the cache
        assertEquals(900, chat.path("usage").path("prompt_tokens_details").path("cached_tokens").asInt());
        assertEquals(1120, chat.path("usage").path("total_tokens").asInt());
        assertEquals(new TokenUsage(150, 70, 900, 0, 0, 0), UsageJson.read(CHAT, chat.path("usage")));

        String responses = "{\"id\":\"resp_1\",\"status\":\"completed\",\"model\":\"gpt\",\"output\":[],\"usage\":"
                + "{\"input_tokens\":1000,\"input_tokens_details\":{\"cached_tokens\":800},\"output_tokens\":60,"
                + "\"output_tokens_details\":{\"reasoning_tokens\":20}}}";
        JsonNode anthropic = answer(MESSAGES, RESPONSES, responses).path("usage");
        assertEquals(200, anthropic.path("input_tokens").asInt()); // Anthropic's input excludes the cache
        assertEquals(800, anthropic.path("cache_read_input_tokens").asInt());
        assertEquals(60, anthropic.path("output_tokens").asInt());
    }

    @ParameterizedTest(name = "{1} id {2} → {0} id {3}")
    @CsvSource({
            "CHAT_COMPLETIONS, MESSAGES, msg_01ABC, chatcmpl-01ABC",
            "MESSAGES, CHAT_COMPLETIONS, chatcmpl-B9M, msg_B9M",
            "RESPONSES, MESSAGES, msg_01ABC, resp_01ABC",
            "MESSAGES, RESPONSES, resp_67cc, msg_67cc",
            "CHAT_COMPLETIONS, RESPONSES, resp_67cc, chatcmpl-67cc",
            "RESPONSES, CHAT_COMPLETIONS, relay-42, resp_relay-42"})
    void theAnswerIdIsShapedForTheClientAndDerivedFromTheUpstreams(EndpointFamily client, EndpointFamily upstream,
            String upstreamId, String clientId) {
        assertEquals(clientId, AnswerIds.forClient(client, upstreamId));
    }

    @Test
    void theModelAndTheClientsTimeAreStated() throws Exception {
        JsonNode chat = answer(CHAT, MESSAGES, messagesAnswer("end_turn", "[]"));
        assertEquals("claude", chat.path("model").asText());
        assertEquals(1764600000L, chat.path("created").asLong());
        assertEquals(1764600000L, answer(RESPONSES, MESSAGES, messagesAnswer("end_turn", "[]")).path("created_at").asLong());
    }

    @Test
    void toolCallArgumentsBecomeMessagesInputAndBrokenArgumentsStayVisible() throws Exception {
        String chat = "{\"id\":\"chatcmpl-1\",\"model\":\"gpt\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                + "\"content\":null,\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"f\","
                + "\"arguments\":\"{\\\"a\\\":1}\"}},{\"id\":\"call_2\",\"type\":\"function\",\"function\":{\"name\":\"g\","
                + "\"arguments\":\"{\\\"a\\\":\"}}]},\"finish_reason\":\"tool_calls\"}]}";
        JsonNode content = answer(MESSAGES, CHAT, chat).path("content");
        assertEquals("{\"type\":\"tool_use\",\"id\":\"call_1\",\"name\":\"f\",\"input\":{\"a\":1}}", content.path(0).toString());
        assertEquals("{\"arguments\":\"{\\\"a\\\":\"}", content.path(1).path("input").toString());
    }

    @Test
    void parallelToolCallsKeepTheirIdsAndOrderInResponses() throws Exception {
        String body = messagesAnswer("tool_use", "[{\"type\":\"tool_use\",\"id\":\"toolu_A\",\"name\":\"f\",\"input\":{\"x\":1}},"
                + "{\"type\":\"tool_use\",\"id\":\"toolu_B\",\"name\":\"f\",\"input\":{\"x\":2}}]");
        JsonNode output = answer(RESPONSES, MESSAGES, body).path("output");
        assertEquals("toolu_A", output.path(0).path("call_id").asText());
        assertEquals("{\"x\":2}", output.path(1).path("arguments").asText());
        assertEquals("fc_1_1", output.path(1).path("id").asText());
        assertEquals("completed", answer(RESPONSES, MESSAGES, body).path("status").asText());
    }
}
