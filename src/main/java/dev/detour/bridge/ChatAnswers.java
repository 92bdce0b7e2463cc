package dev.detour.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.account.EndpointFamily;
import java.util.ArrayList;
import java.util.List;

/**
 * B-2: a buffered Chat Completions answer read into an {@link Answer} and written from one. Chat has no
 * standard field for reasoning; Detour reads and writes {@code reasoning_content}, the field the
 * reasoning relays that speak Chat use. It is shown, never sent back (nothing in Chat can verify it).
 */
final class ChatAnswers {
    private static final EndpointFamily CHAT = EndpointFamily.CHAT_COMPLETIONS;

    private ChatAnswers() {
    }

    static Answer read(JsonNode body) {
        JsonNode choice = body.path("choices").path(0);
        JsonNode message = choice.path("message");
        List<Part> parts = new ArrayList<>();
        String reasoning = Json.text(message, "reasoning_content");
        if (reasoning != null && !reasoning.isEmpty()) {
            parts.add(new Part.Thinking(reasoning, null));
        }
        try {
            parts.addAll(ChatRequests.readContent(message.get("content")));
        } catch (BridgeRefusal notTextOrImage) {
            parts.add(new Part.Text(message.path("content").toString())); // a relay's odd content, kept visible
        }
        String refusal = Json.text(message, "refusal");
        if (refusal != null) {
            parts.add(new Part.Refusal(refusal));
        }
        for (JsonNode call : message.path("tool_calls")) {
            JsonNode function = call.path("function");
            parts.add(new Part.ToolCall(Json.text(call, "id"), Json.text(function, "name"),
                    function.path("arguments").asText("{}")));
        }
        return new Answer(Json.text(body, "id"), Json.text(body, "model"), parts,
                StopReason.fromChat(Json.text(choice, "finish_reason")), null,
                UsageJson.read(CHAT, body.get("usage")));
    }

    static ObjectNode write(Answer answer, long createdEpochSeconds) {
        ObjectNode out = Json.object();
        out.put("id", AnswerIds.forClient(CHAT, answer.id()));
        out.put("object", "chat.completion");
        out.put("created", createdEpochSeconds);
        out.put("model", answer.model());
        ObjectNode choice = out.putArray("choices").addObject();
        choice.put("index", 0);
        ObjectNode message = choice.putObject("message");
        ChatRequests.writeAssistant(answer.parts(), message);
        if (!message.has("refusal")) {
            message.putNull("refusal");
        }
        StringBuilder reasoning = new StringBuilder();
        answer.parts().stream().filter(p -> p instanceof Part.Thinking)
                .forEach(p -> reasoning.append(((Part.Thinking) p).text()));
        if (!reasoning.isEmpty()) {
            message.put("reasoning_content", reasoning.toString());
        }
        choice.putNull("logprobs");
        choice.put("finish_reason", answer.stop().toChat());
        out.set("usage", UsageJson.write(CHAT, answer.usage()));
        return out;
    }
}
