package dev.detour.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.detour.core.account.EndpointFamily;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a whole SSE stream of one protocol the way that protocol's SDK accumulates it (openai-node's chat
 * stream helper, its Responses stream, the Anthropic MessageStream), checking the shape rules a client
 * relies on as it goes: Messages blocks open one at a time with ascending indexes, Responses sequence
 * numbers ascend and each {@code .done} text equals its deltas, nothing follows a terminal event.
 */
final class ClientStreamParse {
    private static final ObjectMapper JSON = new ObjectMapper();

    record Call(String id, String name, String arguments) {
    }

    /** What a client made of a stream. */
    record Answer(String id, String text, String thinking, String refusal, List<Call> calls, String stop,
            JsonNode usage, int terminals, int errors, List<String> signatures, int events) {
    }

    record Event(String name, String data) {
    }

    private final StringBuilder text = new StringBuilder();
    private final StringBuilder thinking = new StringBuilder();
    private final StringBuilder refusal = new StringBuilder();
    private final Map<Integer, String[]> calls = new LinkedHashMap<>();
    private final List<String> signatures = new ArrayList<>();
    private String id;
    private String stop;
    private JsonNode usage;
    private int terminals;
    private int errors;
    private int openBlock = -1;
    private int lastBlock = -1;
    private long lastSequence = -1;
    private String blockType;
    private final StringBuilder itemText = new StringBuilder();

    static Answer read(EndpointFamily protocol, byte[] stream) {
        ClientStreamParse parse = new ClientStreamParse();
        List<Event> events = events(new String(stream, StandardCharsets.UTF_8));
        for (Event e : events) {
            assertEquals(0, parse.terminals + parse.errors, () -> "nothing may follow a terminal or error event: " + e);
            switch (protocol) {
                case CHAT_COMPLETIONS -> parse.chat(e);
                case MESSAGES -> parse.messages(e);
                default -> parse.responses(e);
            }
        }
        List<Call> calls = parse.calls.values().stream().map(c -> new Call(c[0], c[1], c[2])).toList();
        return new Answer(parse.id, parse.text.toString(), parse.thinking.toString(), parse.refusal.toString(), calls,
                parse.stop, parse.usage, parse.terminals, parse.errors, parse.signatures, events.size());
    }

    /** The SSE events of a whole stream (name may be null). */
    static List<Event> events(String stream) {
        List<Event> events = new ArrayList<>();
        for (String block : stream.replace("\r\n", "\n").split("\n\n")) {
            String name = null;
            StringBuilder data = null;
            for (String line : block.split("\n")) {
                if (line.startsWith("event:")) {
                    name = line.substring(6).trim();
                } else if (line.startsWith("data:")) {
                    String value = line.substring(line.startsWith("data: ") ? 6 : 5);
                    data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                }
            }
            if (data != null) {
                events.add(new Event(name, data.toString()));
            }
        }
        return events;
    }

    private void chat(Event e) {
        if (e.data().trim().equals("[DONE]")) {
            terminals++;
            return;
        }
        JsonNode chunk = tree(e.data());
        if (chunk.has("error")) {
            errors++;
            return;
        }
        assertEquals("chat.completion.chunk", chunk.path("object").asText());
        id = chunk.path("id").asText();
        if (chunk.hasNonNull("usage")) {
            usage = chunk.get("usage");
        }
        JsonNode choice = chunk.path("choices").path(0);
        JsonNode delta = choice.path("delta");
        text.append(delta.path("content").asText(""));
        thinking.append(delta.path("reasoning_content").asText(""));
        refusal.append(delta.path("refusal").asText(""));
        for (JsonNode call : delta.path("tool_calls")) {
            String[] c = calls.computeIfAbsent(call.path("index").asInt(), i -> new String[] {null, null, ""});
            if (call.hasNonNull("id")) {
                c[0] = call.get("id").asText();
                c[1] = call.path("function").path("name").asText();
            }
            c[2] += call.path("function").path("arguments").asText("");
        }
        if (choice.hasNonNull("finish_reason")) {
            stop = choice.get("finish_reason").asText();
        }
    }

    private void messages(Event e) {
        JsonNode data = tree(e.data());
        String type = data.path("type").asText();
        if (e.name() != null) {
            assertEquals(e.name(), type, "the event line names the data's type");
        }
        switch (type) {
            case "message_start" -> {
                id = data.path("message").path("id").asText();
                usage = data.path("message").path("usage").deepCopy();
            }
            case "content_block_start" -> {
                int index = data.path("index").asInt();
                assertEquals(-1, openBlock, "a block opens only after the previous one closed");
                assertEquals(lastBlock + 1, index, "block indexes ascend by one");
                openBlock = index;
                lastBlock = index;
                JsonNode block = data.path("content_block");
                blockType = block.path("type").asText();
                if (blockType.equals("tool_use")) {
                    calls.put(index, new String[] {block.path("id").asText(), block.path("name").asText(), ""});
                }
            }
            case "content_block_delta" -> {
                assertEquals(openBlock, data.path("index").asInt(), "a delta belongs to the open block");
                JsonNode delta = data.path("delta");
                switch (delta.path("type").asText()) {
                    case "text_delta" -> text.append(delta.path("text").asText());
                    case "thinking_delta" -> thinking.append(delta.path("thinking").asText());
                    case "signature_delta" -> signatures.add(delta.path("signature").asText());
                    case "input_json_delta" -> calls.get(openBlock)[2] += delta.path("partial_json").asText();
                    default -> throw new AssertionError("unknown delta " + delta);
                }
            }
            case "content_block_stop" -> {
                assertEquals(openBlock, data.path("index").asInt());
                openBlock = -1;
            }
            case "message_delta" -> {
                stop = data.path("delta").path("stop_reason").asText();
                // the SDK keeps message_start's counts and takes each count message_delta gives
                ((com.fasterxml.jackson.databind.node.ObjectNode) usage).setAll((com.fasterxml.jackson.databind.node.ObjectNode) data.path("usage"));
            }
            case "message_stop" -> {
                assertEquals(-1, openBlock, "every block closed before the end");
                terminals++;
            }
            case "error" -> errors++;
            case "ping" -> {
            }
            default -> throw new AssertionError("unknown Messages event " + type);
        }
    }

    private void responses(Event e) {
        JsonNode data = tree(e.data());
        String type = data.path("type").asText();
        if (e.name() != null) {
            assertEquals(e.name(), type, "the event line names the data's type");
        }
        long sequence = data.path("sequence_number").asLong();
        assertTrue(sequence > lastSequence, "sequence numbers ascend");
        lastSequence = sequence;
        switch (type) {
            case "response.created" -> id = data.path("response").path("id").asText();
            case "response.output_item.added" -> {
                itemText.setLength(0);
                JsonNode item = data.path("item");
                if (item.path("type").asText().equals("function_call")) {
                    calls.put(data.path("output_index").asInt(), new String[] {item.path("call_id").asText(),
                            item.path("name").asText(), item.path("arguments").asText("")});
                }
            }
            case "response.output_text.delta" -> append(text, data);
            case "response.refusal.delta" -> append(refusal, data);
            case "response.reasoning_summary_text.delta", "response.reasoning_text.delta" -> append(thinking, data);
            case "response.function_call_arguments.delta" -> {
                calls.get(data.path("output_index").asInt())[2] += data.path("delta").asText();
                itemText.append(data.path("delta").asText());
            }
            case "response.output_text.done" -> assertEquals(itemText.toString(), data.path("text").asText());
            case "response.refusal.done" -> assertEquals(itemText.toString(), data.path("refusal").asText());
            case "response.function_call_arguments.done" ->
                    assertEquals(itemText.toString(), data.path("arguments").asText());
            case "response.output_item.done" -> {
                JsonNode item = data.path("item");
                if (item.hasNonNull("encrypted_content")) { // the proof OpenAI needs back: item id and content
                    signatures.add(item.path("id").asText() + ":" + item.get("encrypted_content").asText());
                }
            }
            case "response.completed", "response.incomplete" -> {
                JsonNode response = data.path("response");
                stop = response.path("status").asText();
                usage = response.path("usage");
                assertFalse(response.path("output").isEmpty(), "the final response lists its output");
                terminals++;
            }
            case "response.failed", "error" -> errors++;
            default -> {
            }
        }
    }

    private void append(StringBuilder to, JsonNode data) {
        to.append(data.path("delta").asText());
        itemText.append(data.path("delta").asText());
    }

    private static JsonNode tree(String data) {
        try {
            return JSON.readTree(data);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + data, e);
        }
    }
}
