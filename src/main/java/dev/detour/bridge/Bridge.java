package dev.detour.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.account.EndpointFamily;

/**
 * B-2: buffered translation between the three client protocols (Chat Completions, Responses, Messages),
 * six directions. Pure functions over Jackson trees: the caller (the gateway) parses, picks the upstream
 * account and model, sends {@link #request}'s body to {@code upstream.path()}, and turns the answer back
 * with {@link #answer} or {@link BridgeErrors#translate}. Each protocol is read into and written from a
 * neutral form ({@link Conversation}, {@link Answer}), so a protocol's facts live in one codec.
 */
public final class Bridge {
    private Bridge() {
    }

    /** Whether Detour can bridge to or from this family (embeddings, legacy completions and the rest pass through). */
    public static boolean bridges(EndpointFamily family) {
        return family.conversational();
    }

    /**
     * The client's request body in the upstream's protocol, for {@code upstreamModel}.
     *
     * @throws BridgeRefusal a feature of the request the upstream's protocol cannot carry (answer 400)
     */
    public static ObjectNode request(EndpointFamily client, EndpointFamily upstream, JsonNode body,
            String upstreamModel) throws BridgeRefusal {
        return translate(client, upstream, body, upstreamModel, true).body();
    }

    /**
     * The upstream request ({@code body}) and the names the client's tools went up under ({@code tools}), which
     * the answer needs to call them by the client's names again ({@link #answer}, {@link StreamBridge.Options}).
     */
    public record Translation(ObjectNode body, ToolNames tools) {
    }

    /**
     * {@link #request} with the tool names it used. {@code reasoning} false: the account takes no reasoning
     * parameters (B-6 {@code bridge_reasoning}), so whatever thinking the client asked for is left out.
     *
     * @throws BridgeRefusal a feature of the request the upstream's protocol cannot carry (answer 400)
     */
    public static Translation translate(EndpointFamily client, EndpointFamily upstream, JsonNode body,
            String upstreamModel, boolean reasoning) throws BridgeRefusal {
        ToolNames tools = checked(client) == EndpointFamily.RESPONSES ? ResponsesRequests.toolNames(body)
                : ToolNames.NONE;
        Conversation asked = client == EndpointFamily.RESPONSES ? ResponsesRequests.read(body, tools)
                : conversation(client, body);
        Conversation conversation = reasoning ? asked : asked.withoutReasoning();
        ObjectNode out = switch (checked(upstream)) {
            case MESSAGES -> MessagesRequests.write(conversation, upstreamModel);
            case RESPONSES -> ResponsesRequests.write(conversation, upstreamModel);
            default -> ChatRequests.write(conversation, upstreamModel);
        };
        return new Translation(out, tools);
    }

    /**
     * The upstream's buffered 2xx answer in the client's protocol. {@code createdEpochSeconds} is the
     * answer's time for protocols that state one (Chat {@code created}, Responses {@code created_at}):
     * the caller's clock, since this package reads none.
     */
    public static ObjectNode answer(EndpointFamily client, EndpointFamily upstream, JsonNode body,
            long createdEpochSeconds) {
        return answer(client, upstream, body, createdEpochSeconds, ToolNames.NONE);
    }

    /** {@link #answer}, its tool calls named as the client named its tools ({@link Translation#tools}). */
    public static ObjectNode answer(EndpointFamily client, EndpointFamily upstream, JsonNode body,
            long createdEpochSeconds, ToolNames tools) {
        Answer answer = readAnswer(upstream, body);
        return switch (checked(client)) {
            case MESSAGES -> MessagesAnswers.write(answer);
            case RESPONSES -> ResponsesAnswers.write(answer, createdEpochSeconds, tools);
            default -> ChatAnswers.write(answer, createdEpochSeconds);
        };
    }

    static Conversation conversation(EndpointFamily protocol, JsonNode body) throws BridgeRefusal {
        return switch (checked(protocol)) {
            case MESSAGES -> MessagesRequests.read(body);
            case RESPONSES -> ResponsesRequests.read(body);
            default -> ChatRequests.read(body);
        };
    }

    static Answer readAnswer(EndpointFamily protocol, JsonNode body) {
        return switch (checked(protocol)) {
            case MESSAGES -> MessagesAnswers.read(body);
            case RESPONSES -> ResponsesAnswers.read(body);
            default -> ChatAnswers.read(body);
        };
    }

    private static EndpointFamily checked(EndpointFamily family) {
        if (!bridges(family)) {
            throw new IllegalArgumentException("no bridge for " + family);
        }
        return family;
    }
}
