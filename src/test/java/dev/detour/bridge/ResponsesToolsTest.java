package dev.detour.bridge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.detour.bridge.ClientStreamParse.Event;
import dev.detour.core.account.EndpointFamily;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * B-6: a Responses client's namespaced and custom (free-form) tools — what Codex CLI declares on every request
 * — bridged to Chat and Messages upstreams and back, on the fixtures in src/test/resources/bridge/codex-tools/
 * (shaped from the public Responses reference and a recorded Codex 0.171 request): each tool goes up as a
 * plain function under a name the upstream accepts, the history's custom call and its output go up as a tool
 * call and its result, and a call coming back — buffered or streamed — is named as the client named the tool,
 * in its namespace, a custom tool's call as {@code custom_tool_call} with its text. Reviewed expected upstream
 * requests, answers and streams are in the fixture folder ({@code -Dbridge.writeExpected=true} rewrites them).
 */
class ResponsesToolsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final EndpointFamily RESPONSES = EndpointFamily.RESPONSES;
    private static final long CREATED = 1764600000L;
    private static final String EXEC_SOURCE = "text(\"codex-tool-\" + (6 * 7))";
    /** The apply_patch text the Messages fixtures' tool_use carries in its input parameter. */
    private static final String PATCH = "*** Begin Patch\n*** Update File: a.txt\n-old\n+new\n*** End Patch";

    static Stream<Arguments> upstreams() {
        return Stream.of(Arguments.of(EndpointFamily.CHAT_COMPLETIONS, "chat"),
                Arguments.of(EndpointFamily.MESSAGES, "messages"));
    }

    @ParameterizedTest(name = "to {1}")
    @MethodSource("upstreams")
    void namespacedAndCustomToolsGoUpAsFunctionsTheUpstreamAccepts(EndpointFamily upstream, String name)
            throws IOException, BridgeRefusal {
        Bridge.Translation translation = Bridge.translate(RESPONSES, upstream, fixture("request.json"), "m", true);
        expected(name + "-upstream-request.json", translation.body());

        Conversation sent = Bridge.conversation(upstream, translation.body());
        assertEquals(List.of("apply_patch", "exec", "functions__wait", "list_agents", "collaboration__wait"),
                sent.tools().stream().map(Conversation.ToolSpec::name).toList(), "tools, then the additional_tools"
                + " items' tools, each once: a bare name where it is unique, <namespace>__<name> where two share it");
        for (Conversation.ToolSpec tool : sent.tools()) {
            assertTrue(tool.name().matches("[a-zA-Z0-9_-]{1,64}"), tool.name());
        }
        Conversation.ToolSpec exec = sent.tools().get(1);
        assertEquals("string", exec.schema().path("properties").path("input").path("type").asText());
        assertEquals("[\"input\"]", exec.schema().path("required").toString());
        assertTrue(exec.schema().path("properties").path("input").path("description").asText()
                .contains("lark grammar:\nstart: SOURCE"), "the grammar only OpenAI enforces is told to the model");
        assertTrue(sent.tools().get(4).description().startsWith("Tools for spawning and managing sub-agents.\n\n"
                + "Wait for a mailbox update."), "the namespace's description comes with each of its tools");
    }

    @ParameterizedTest(name = "to {1}")
    @MethodSource("upstreams")
    void theHistorysCustomCallAndItsOutputGoUpAsAToolCallAndItsResult(EndpointFamily upstream, String name)
            throws IOException, BridgeRefusal {
        Conversation sent = Bridge.conversation(upstream,
                Bridge.request(RESPONSES, upstream, fixture("request.json"), "m"));
        List<Part> parts = sent.turns().stream().flatMap(t -> t.parts().stream()).toList();
        List<Part.ToolCall> calls = parts.stream().filter(p -> p instanceof Part.ToolCall)
                .map(p -> (Part.ToolCall) p).toList();
        assertEquals(List.of(new Part.ToolCall("call_exec_1", "exec", "{\"input\":" + JSON.writeValueAsString(EXEC_SOURCE) + "}"),
                new Part.ToolCall("call_list_2", "list_agents", "{}"),
                new Part.ToolCall("call_wait_3", "collaboration__wait", "{\"timeout_ms\":10000}")),
                calls.stream().map(c -> new Part.ToolCall(c.id(), c.name(), Json.parse(c.arguments()).toString()))
                        .toList());
        List<String> results = parts.stream().filter(p -> p instanceof Part.ToolResult)
                .map(p -> ((Part.ToolResult) p).callId() + "=" + text(((Part.ToolResult) p).content())).toList();
        assertEquals(List.of("call_exec_1=Script completed\nOutput:\ncodex-tool-42", "call_list_2=no live agents",
                "call_wait_3=timed out"), results);
    }

    @ParameterizedTest(name = "from {1}")
    @MethodSource("upstreams")
    void aBufferedCallComesBackAsTheClientNamedTheTool(EndpointFamily upstream, String name)
            throws IOException, BridgeRefusal {
        ToolNames tools = Bridge.translate(RESPONSES, upstream, fixture("request.json"), "m", true).tools();
        JsonNode answer = Bridge.answer(RESPONSES, upstream, fixture(name + "-upstream-answer.json"), CREATED, tools);
        expected(name + "-answer.json", answer);

        List<JsonNode> calls = new ArrayList<>();
        answer.path("output").forEach(item -> {
            if (!"message".equals(item.path("type").asText())) {
                calls.add(item);
            }
        });
        if (upstream == EndpointFamily.CHAT_COMPLETIONS) {
            assertCall(calls.get(0), "custom_tool_call", "functions", "exec", "call_exec_9");
            assertEquals(EXEC_SOURCE, calls.get(0).path("input").asText());
            assertCall(calls.get(1), "function_call", "collaboration", "wait", "call_wait_9");
            assertEquals("{\"timeout_ms\":5}", calls.get(1).path("arguments").asText());
        } else {
            assertCall(calls.get(0), "custom_tool_call", null, "apply_patch", "toolu_01Patch");
            assertEquals(PATCH, calls.get(0).path("input").asText());
            assertCall(calls.get(1), "function_call", "collaboration", "list_agents", "toolu_02List");
        }
        assertEquals(2, calls.size());
    }

    @ParameterizedTest(name = "from {1}")
    @MethodSource("upstreams")
    void aStreamedCallComesBackAsTheClientNamedTheTool(EndpointFamily upstream, String name)
            throws IOException, BridgeRefusal {
        ToolNames tools = Bridge.translate(RESPONSES, upstream, fixture("request.json"), "m", true).tools();
        byte[] source = bytes(name + ".upstream.sse");
        byte[] translated = stream(upstream, tools, source, Integer.MAX_VALUE);
        String expectedName = name + "-to-responses.sse";
        if (Boolean.getBoolean("bridge.writeExpected")) {
            Files.write(Path.of("src/test/resources/bridge/codex-tools", expectedName), translated);
        }
        assertEquals(ClientStreamParse.events(new String(bytes(expectedName), StandardCharsets.UTF_8)),
                ClientStreamParse.events(new String(translated, StandardCharsets.UTF_8)));
        assertArrayEquals(translated, stream(upstream, tools, source, 7), "7-byte reads translate like one read");

        List<Event> events = ClientStreamParse.events(new String(translated, StandardCharsets.UTF_8));
        List<JsonNode> done = new ArrayList<>();
        JsonNode completed = null;
        StringBuilder customDeltas = new StringBuilder();
        for (Event e : events) {
            JsonNode data = JSON.readTree(e.data());
            switch (e.name()) {
                case "response.output_item.done" -> done.add(data.path("item"));
                case "response.custom_tool_call_input.delta" -> customDeltas.append(data.path("delta").asText());
                case "response.completed" -> completed = data.path("response");
                case "response.function_call_arguments.delta" -> assertFalse(
                        data.path("delta").asText().contains("\"input\""), "a custom tool's JSON wrapper never leaves");
                default -> {
                }
            }
        }
        assertEquals(2, done.size());
        assertEquals(JSON.valueToTree(done), completed.path("output"), "response.completed carries the same items");
        if (upstream == EndpointFamily.CHAT_COMPLETIONS) {
            assertCall(done.get(0), "custom_tool_call", "functions", "exec", "call_exec_7");
            assertEquals(EXEC_SOURCE + "\n", done.get(0).path("input").asText());
            assertEquals(EXEC_SOURCE + "\n", customDeltas.toString());
            assertCall(done.get(1), "function_call", "functions", "wait", "call_wait_7");
            assertEquals("{\"cell_id\":\"7\"}", done.get(1).path("arguments").asText());
        } else {
            assertCall(done.get(0), "custom_tool_call", null, "apply_patch", "toolu_01Patch");
            assertEquals(PATCH, done.get(0).path("input").asText());
            assertCall(done.get(1), "function_call", "collaboration", "wait", "toolu_02Wait");
        }
    }

    @Test
    void aCallOfAToolTheRequestDidNotDeclareKeepsTheUpstreamsName() throws Exception {
        ToolNames tools = Bridge.translate(RESPONSES, EndpointFamily.CHAT_COMPLETIONS, fixture("request.json"), "m",
                true).tools();
        assertNull(tools.client("shell"));
        JsonNode chat = JSON.readTree("{\"id\":\"chatcmpl-1\",\"model\":\"m\",\"choices\":[{\"index\":0,\"message\":"
                + "{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":"
                + "{\"name\":\"shell\",\"arguments\":\"{}\"}}]},\"finish_reason\":\"tool_calls\"}]}");
        JsonNode call = Bridge.answer(RESPONSES, EndpointFamily.CHAT_COMPLETIONS, chat, CREATED, tools)
                .path("output").get(0);
        assertCall(call, "function_call", null, "shell", "c1");
    }

    @Test
    void namesTheUpstreamWouldRefuseAreCleanedAndClashesNumbered() {
        ToolNames names = new ToolNames(List.of(new ToolNames.Tool(null, "a__b", false),
                new ToolNames.Tool("a", "b", false), new ToolNames.Tool("x", "b", true),
                new ToolNames.Tool("mcp.server", "read file", false), new ToolNames.Tool(null, "q".repeat(70), false)));
        assertEquals("a__b", names.upstream(null, "a__b"));
        assertEquals("a__b_2", names.upstream("a", "b"), "a namespaced name clashing with a top-level one");
        assertEquals("x__b", names.upstream("x", "b"));
        assertEquals("read_file", names.upstream("mcp.server", "read file"));
        assertEquals("q".repeat(64), names.upstream(null, "q".repeat(70)));
        assertEquals(new ToolNames.Tool("a", "b", false), names.client("a__b_2"));
        assertEquals(new ToolNames.Tool("x", "b", true), names.client("x__b"));
    }

    @Test
    void aCustomCallsTextSurvivesTheJsonWrapperAndAModelThatWroteItBare() {
        String text = "line 1\n\"quoted\" \\ ünïcode";
        assertEquals(text, ToolNames.inputOf(ToolNames.argumentsOf(text)));
        assertEquals("echo hi", ToolNames.inputOf("echo hi"));
        assertEquals("{\"other\":1}", ToolNames.inputOf("{\"other\":1}"));
    }

    private static void assertCall(JsonNode item, String type, String namespace, String name, String callId) {
        assertEquals(type, item.path("type").asText(), item.toString());
        assertEquals(namespace, item.hasNonNull("namespace") ? item.get("namespace").asText() : null, item.toString());
        assertEquals(name, item.path("name").asText(), item.toString());
        assertEquals(callId, item.path("call_id").asText(), item.toString());
        assertEquals("completed", item.path("status").asText(), item.toString());
    }

    private static String text(List<Part> content) {
        StringBuilder out = new StringBuilder();
        content.forEach(p -> out.append(((Part.Text) p).text()));
        return out.toString();
    }

    private static byte[] stream(EndpointFamily upstream, ToolNames tools, byte[] source, int readSize) {
        StreamBridge bridge = StreamBridge.between(upstream, RESPONSES,
                new StreamBridge.Options(false, StreamBridgeFixtureTest.CREATED, tools));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int at = 0; at < source.length; at += readSize) {
            out.writeBytes(bridge.feed(source, at, Math.min(readSize, source.length - at)));
        }
        out.writeBytes(bridge.finish());
        return out.toByteArray();
    }

    private static void expected(String name, JsonNode actual) throws IOException {
        if (Boolean.getBoolean("bridge.writeExpected")) {
            Files.writeString(Path.of("src/test/resources/bridge/codex-tools", name), actual.toPrettyString() + "\n");
        }
        JsonAssert.assertJson(fixture(name), actual);
    }

    private static JsonNode fixture(String name) throws IOException {
        return JSON.readTree(bytes(name));
    }

    private static byte[] bytes(String name) throws IOException {
        try (InputStream in = ResponsesToolsTest.class.getResourceAsStream("/bridge/codex-tools/" + name)) {
            if (in == null) {
                throw new IOException("no fixture " + name);
            }
            return in.readAllBytes();
        }
    }
}
