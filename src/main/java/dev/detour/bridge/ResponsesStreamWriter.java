package dev.detour.bridge;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.usage.TokenUsage;

/**
 * B-2: an OpenAI Responses client's stream: {@code response.created}, {@code response.in_progress}, each
 * block as an output item ({@code output_item.added}, its part or summary part, its deltas, the matching
 * {@code .done} events with the whole text, {@code output_item.done}), then {@code response.completed} (or
 * {@code response.incomplete}) carrying every item and the usage — Codex reads its items and usage from
 * there. Each event has its {@code sequence_number}. The item texts are kept for those {@code .done} events;
 * every delta still leaves in the call that read it. A thinking block becomes a reasoning item with a
 * summary; its {@code encrypted_content} is the upstream's proof sealed ({@link #sealedProof}), so it is
 * never taken for OpenAI's own. Item ids follow {@link AnswerIds#item}. An upstream error becomes {@code response.failed} with the error, the
 * event Codex retries a turn on (the same one the gateway writes for a broken stream).
 */
final class ResponsesStreamWriter extends StreamWriter {
    private final ArrayNode output = JSON.createArrayNode();
    private final StringBuilder text = new StringBuilder();
    private String id = "";
    private String model = "";
    private long sequence;
    private final ToolNames tools;
    private ObjectNode item;
    private boolean custom;

    ResponsesStreamWriter(EndpointFamily upstream, long createdAt, ToolNames tools) {
        super(upstream, createdAt);
        this.tools = tools;
    }

    /** The client-facing response id once the stream started, else null. */
    String responseId() {
        return id.isEmpty() ? null : id;
    }

    @Override
    protected void onStart(String upstreamId, String upstreamModel) {
        id = AnswerIds.forClient(EndpointFamily.RESPONSES, upstreamId);
        model = upstreamModel;
        emit("response.created", withResponse("in_progress"));
        emit("response.in_progress", withResponse("in_progress"));
    }

    @Override
    protected void onBlockStart(Kind kind, String callId, String name) {
        text.setLength(0);
        ToolNames.Tool tool = kind == Kind.TOOL_CALL ? tools.client(name) : null;
        custom = tool != null && tool.custom();
        String itemId = itemId(kind);
        item = JSON.createObjectNode().put("id", itemId);
        switch (kind) {
            case TEXT, REFUSAL -> {
                item.put("type", "message").put("status", "in_progress").put("role", "assistant");
                item.putArray("content");
            }
            case TOOL_CALL -> {
                // B-6: the call as the client named the tool, in its namespace, custom_tool_call for a custom one
                item.put("type", custom ? "custom_tool_call" : "function_call").put("status", "in_progress")
                        .put("call_id", callId);
                if (tool != null && tool.namespace() != null) {
                    item.put("namespace", tool.namespace());
                }
                item.put("name", tool == null ? name : tool.name()).put(custom ? "input" : "arguments", "");
            }
            case THINKING -> item.put("type", "reasoning").putArray("summary");
        }
        emit("response.output_item.added", ofItem(item.deepCopy()));
        if (kind == Kind.TEXT || kind == Kind.REFUSAL) {
            emit("response.content_part.added", ofPart(part(kind)));
        } else if (kind == Kind.THINKING) {
            emit("response.reasoning_summary_part.added", ofSummary(summary()));
        }
    }

    @Override
    protected void onDelta(Kind kind, String delta) {
        text.append(delta);
        switch (kind) {
            case TEXT -> emit("response.output_text.delta", ofPart(null).put("delta", delta));
            case REFUSAL -> emit("response.refusal.delta", ofPart(null).put("delta", delta));
            case TOOL_CALL -> {
                if (!custom) { // a custom tool's text is inside the JSON arguments: it leaves whole at the stop
                    emit("response.function_call_arguments.delta", ofItemId().put("delta", delta));
                }
            }
            case THINKING -> emit("response.reasoning_summary_text.delta", ofSummary(null).put("delta", delta));
        }
    }

    @Override
    protected void onBlockStop(Kind kind) {
        String whole = text.toString();
        switch (kind) {
            case TEXT, REFUSAL -> {
                String field = kind == Kind.TEXT ? "text" : "refusal";
                emit(kind == Kind.TEXT ? "response.output_text.done" : "response.refusal.done",
                        ofPart(null).put(field, whole));
                ObjectNode done = part(kind).put(field, whole);
                emit("response.content_part.done", ofPart(done));
                item.withArray("content").add(done);
            }
            case TOOL_CALL -> {
                if (custom) {
                    String input = ToolNames.inputOf(whole);
                    if (!input.isEmpty()) {
                        emit("response.custom_tool_call_input.delta", ofItemId().put("delta", input));
                    }
                    emit("response.custom_tool_call_input.done", ofItemId().put("input", input));
                    item.put("input", input);
                } else {
                    emit("response.function_call_arguments.done", ofItemId().put("arguments", whole));
                    item.put("arguments", whole);
                }
            }
            case THINKING -> {
                emit("response.reasoning_summary_text.done", ofSummary(null).put("text", whole));
                ObjectNode done = summary().put("text", whole);
                emit("response.reasoning_summary_part.done", ofSummary(done));
                item.withArray("summary").add(done);
                item.put("encrypted_content", sealedProof());
            }
        }
        if (kind != Kind.THINKING) {
            item.put("status", "completed");
        }
        emit("response.output_item.done", ofItem(item));
        output.add(item);
        item = null;
    }

    @Override
    protected void onEnd(StopReason reason, String stopSequence, TokenUsage usage) {
        String status = reason.toResponsesStatus();
        ObjectNode event = withResponse(status);
        ObjectNode response = (ObjectNode) event.get("response");
        response.set("output", output);
        if (usageSeen()) { // else it stays null: unknown, not zero
            response.set("usage", UsageJson.write(EndpointFamily.RESPONSES, usage));
        }
        if (reason.toResponsesIncompleteReason() != null) {
            response.putObject("incomplete_details").put("reason", reason.toResponsesIncompleteReason());
        }
        emit("completed".equals(status) ? "response.completed" : "response.incomplete", event);
    }

    @Override
    protected void onError(String type, String message) {
        ObjectNode event = withResponse("failed");
        ((ObjectNode) event.get("response")).putObject("error").put("code", type).put("message", message);
        emit("response.failed", event);
    }

    private void emit(String type, ObjectNode event) {
        ObjectNode typed = JSON.createObjectNode().put("type", type).put("sequence_number", sequence++);
        typed.setAll(event);
        event(type, typed);
    }

    private ObjectNode withResponse(String status) {
        ObjectNode event = JSON.createObjectNode();
        ObjectNode response = event.putObject("response").put("id", id).put("object", "response")
                .put("created_at", createdAt).put("status", status).put("model", model);
        response.putArray("output");
        response.putNull("usage");
        response.putNull("error");
        response.putNull("incomplete_details");
        return event;
    }

    private String itemId(Kind kind) {
        String prefix = switch (kind) {
            case TEXT, REFUSAL -> "msg";
            case TOOL_CALL -> custom ? "ctc" : "fc";
            case THINKING -> "rs";
        };
        return AnswerIds.item(prefix, id, output.size());
    }

    private ObjectNode ofItem(ObjectNode body) {
        ObjectNode event = JSON.createObjectNode().put("output_index", output.size());
        event.set("item", body);
        return event;
    }

    private ObjectNode ofItemId() {
        return JSON.createObjectNode().put("item_id", item.get("id").asText()).put("output_index", output.size());
    }

    private ObjectNode ofPart(ObjectNode part) {
        ObjectNode event = ofItemId().put("content_index", 0);
        if (part != null) {
            event.set("part", part);
        }
        return event;
    }

    private ObjectNode ofSummary(ObjectNode part) {
        ObjectNode event = ofItemId().put("summary_index", 0);
        if (part != null) {
            event.set("part", part);
        }
        return event;
    }

    private static ObjectNode part(Kind kind) {
        if (kind == Kind.REFUSAL) {
            return JSON.createObjectNode().put("type", "refusal").put("refusal", "");
        }
        ObjectNode part = JSON.createObjectNode().put("type", "output_text").put("text", "");
        part.putArray("annotations");
        return part;
    }

    private static ObjectNode summary() {
        return JSON.createObjectNode().put("type", "summary_text").put("text", "");
    }
}
