package dev.detour.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.account.EndpointFamily;
import java.util.Iterator;

/**
 * B-2, B-3: a request that goes to an account of the client's own protocol is passed through, but its
 * history may hold reasoning Detour made on an earlier, bridged turn (a failover, or a pool that mixes
 * protocols). That reasoning carries a {@link BridgedReasoning} seal no native upstream could verify:
 * Anthropic would reject the thinking block's signature, OpenAI the reasoning item's encrypted content.
 * This removes it, and nothing else, from the body before the native dispatch.
 */
public final class NativeHistory {
    private NativeHistory() {
    }

    /** Whether a request of this protocol has a place for reasoning Detour sealed (Chat Completions has none). */
    public static boolean mayCarryBridgedReasoning(EndpointFamily protocol) {
        return protocol == EndpointFamily.MESSAGES || protocol == EndpointFamily.RESPONSES;
    }

    /** Removes Detour-made reasoning from a Messages or Responses request body in place; true when it removed any. */
    public static boolean stripBridgedReasoning(EndpointFamily protocol, ObjectNode body) {
        if (protocol == EndpointFamily.MESSAGES) {
            return stripMessages(body);
        }
        if (protocol == EndpointFamily.RESPONSES) {
            return removeBridged(body.path("input"), "reasoning", "encrypted_content");
        }
        return false;
    }

    private static boolean stripMessages(ObjectNode body) {
        boolean removed = false;
        for (JsonNode message : body.path("messages")) {
            removed |= removeBridged(message.path("content"), "thinking", "signature");
        }
        String thinking = body.path("thinking").path("type").asText();
        if (removed && (thinking.equals("enabled") || thinking.equals("adaptive"))
                && !MessagesRequests.thinkingCanContinue((ArrayNode) body.get("messages"))) {
            body.putObject("thinking").put("type", "disabled"); // see MessagesRequests.thinkingCanContinue
        }
        return removed;
    }

    private static boolean removeBridged(JsonNode list, String type, String sealField) {
        boolean removed = false;
        if (list.isArray()) {
            for (Iterator<JsonNode> it = list.elements(); it.hasNext(); ) {
                JsonNode item = it.next();
                String seal = Json.text(item, sealField);
                if (type.equals(Json.text(item, "type")) && seal != null && BridgedReasoning.isBridged(seal)) {
                    it.remove();
                    removed = true;
                }
            }
        }
        return removed;
    }
}
