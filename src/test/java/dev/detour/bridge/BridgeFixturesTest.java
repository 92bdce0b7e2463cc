package dev.detour.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.detour.bridge.Conversation.Turn;
import dev.detour.core.account.EndpointFamily;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * B-2, each of the six directions on real request and answer shapes (written from the public OpenAI and
 * Anthropic API references, in src/test/resources/bridge/&lt;client&gt;-to-&lt;upstream&gt;/): the client's
 * request becomes the upstream request shown, the upstream's answer becomes the client answer shown, and
 * the content survives the trip both ways.
 */
class BridgeFixturesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long CREATED = 1764600000L;
    private static final EndpointFamily CHAT = EndpointFamily.CHAT_COMPLETIONS;
    private static final EndpointFamily MESSAGES = EndpointFamily.MESSAGES;
    private static final EndpointFamily RESPONSES = EndpointFamily.RESPONSES;

    static Stream<Arguments> directions() {
        return Stream.of(
                Arguments.of("chat-to-messages", CHAT, MESSAGES, "claude-sonnet-4-5-20250929"),
                Arguments.of("messages-to-chat", MESSAGES, CHAT, "gpt-4o"),
                Arguments.of("chat-to-responses", CHAT, RESPONSES, "gpt-5"),
                Arguments.of("responses-to-chat", RESPONSES, CHAT, "deepseek-chat"),
                Arguments.of("messages-to-responses", MESSAGES, RESPONSES, "o4-mini"),
                Arguments.of("responses-to-messages", RESPONSES, MESSAGES, "claude-opus-4-1-20250805"));
    }

    static JsonNode fixture(String direction, String name) throws IOException {
        try (InputStream in = BridgeFixturesTest.class.getResourceAsStream("/bridge/" + direction + "/" + name)) {
            return JSON.readTree(in);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("directions")
    void theClientsRequestBecomesTheUpstreamRequest(String direction, EndpointFamily client, EndpointFamily upstream,
            String model) throws Exception {
        JsonNode translated = Bridge.request(client, upstream, fixture(direction, "request.json"), model);
        JsonAssert.assertJson(fixture(direction, "upstream-request.json"), translated);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("directions")
    void theUpstreamsAnswerBecomesTheClientsAnswer(String direction, EndpointFamily client, EndpointFamily upstream,
            String model) throws Exception {
        JsonNode translated = Bridge.answer(client, upstream, fixture(direction, "upstream-answer.json"), CREATED);
        JsonAssert.assertJson(fixture(direction, "answer.json"), translated);
    }

    /**
     * What the upstream reads from the translated request is what the client asked: instructions, every
     * turn (text, images, tool calls and results with their ids) and the tool definitions. Only what the
     * upstream cannot carry differs, by rule: reasoning of another origin is left out, OpenAI has no
     * is_error flag on a tool result, and an image's detail is a hint only OpenAI takes (Responses says auto).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("directions")
    void theUpstreamReadsTheSameConversation(String direction, EndpointFamily client, EndpointFamily upstream,
            String model) throws Exception {
        Conversation asked = Bridge.conversation(client, fixture(direction, "request.json"));
        Conversation sent = Bridge.conversation(upstream, Bridge.request(client, upstream,
                fixture(direction, "request.json"), model));
        assertEquals(asked.system(), sent.system());
        assertEquals(carriable(asked.turns(), upstream), carriable(sent.turns(), upstream));
        assertEquals(asked.tools().stream().map(t -> List.of(t.name(), t.schema())).toList(),
                sent.tools().stream().map(t -> List.of(t.name(), t.schema())).toList());
        assertEquals(asked.toolChoice(), sent.toolChoice());
        assertEquals(asked.temperature(), sent.temperature());
        assertEquals(asked.topP(), sent.topP());
        assertEquals(asked.stop(), sent.stop());
    }

    /**
     * The client reading its translated answer sees what the upstream answered: the same parts in the same
     * order (reasoning with its seal, which a Chat client cannot hold), the same stop reason.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("directions")
    void theClientReadsTheSameAnswer(String direction, EndpointFamily client, EndpointFamily upstream, String model)
            throws Exception {
        Answer answered = Bridge.readAnswer(upstream, fixture(direction, "upstream-answer.json"));
        Answer seen = Bridge.readAnswer(client, Bridge.answer(client, upstream,
                fixture(direction, "upstream-answer.json"), CREATED));
        List<Part> expected = client == CHAT ? answered.parts().stream().map(BridgeFixturesTest::unsealed).toList()
                : answered.parts();
        assertEquals(expected, seen.parts());
        assertEquals(answered.stop(), seen.stop());
        assertEquals(answered.usage().output(), seen.usage().output());
        assertEquals(answered.usage().promptTotal(), seen.usage().promptTotal());
    }

    private static List<Turn> carriable(List<Turn> turns, EndpointFamily upstream) {
        return turns.stream().map(turn -> new Turn(turn.role(), turn.parts().stream()
                .filter(p -> !(p instanceof Part.Thinking t) || (t.seal() != null && t.seal().origin() == upstream))
                .map(p -> p instanceof Part.ToolResult r && upstream != MESSAGES
                        ? new Part.ToolResult(r.callId(), r.content(), false) : p)
                .map(BridgeFixturesTest::withoutDetail)
                .toList())).filter(turn -> !turn.parts().isEmpty()).toList();
    }

    private static Part withoutDetail(Part part) {
        if (part instanceof Part.ToolResult r) {
            return new Part.ToolResult(r.callId(), r.content().stream().map(BridgeFixturesTest::withoutDetail).toList(),
                    r.isError());
        }
        return part instanceof Part.Image i ? new Part.Image(i.mediaType(), i.data(), i.url(), null) : part;
    }

    private static Part unsealed(Part part) {
        return part instanceof Part.Thinking t ? new Part.Thinking(t.text(), null) : part;
    }
}
