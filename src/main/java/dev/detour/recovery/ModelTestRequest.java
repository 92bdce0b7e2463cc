package dev.detour.recovery;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.Platform;
import dev.detour.core.account.Protocols;
import dev.detour.gateway.port.ClientCall;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.wire.HeaderPolicy;
import dev.detour.gateway.port.UpstreamRequest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/**
 * the smallest real generation request in the account's own protocol — chat completions for
 * OpenAI-style accounts, messages for Anthropic, responses when that is all the account serves.
 */
final class ModelTestRequest {
    static final String PROMPT = "ping";
    private static final ObjectMapper JSON = new ObjectMapper();

    private ModelTestRequest() {
    }

    static EndpointFamily familyFor(Account account) {
        if (account.platform() == Platform.ANTHROPIC) {
            return EndpointFamily.MESSAGES;
        }
        for (EndpointFamily f : Protocols.CONVERSATIONAL) {
            // B-1: a test asks in a protocol the account speaks itself, never through the bridge
            if (account.families().contains(f) && account.protocols().contains(f)) {
                return f;
            }
        }
        return EndpointFamily.CHAT_COMPLETIONS;
    }

    static byte[] body(EndpointFamily family, String upstreamModel) {
        ObjectNode body = JSON.createObjectNode().put("model", upstreamModel);
        if (family == EndpointFamily.RESPONSES) {
            // the Responses API refuses max_output_tokens below 16
            body.put("input", PROMPT).put("max_output_tokens", 16);
        } else {
            body.put("max_tokens", 1);
            body.putArray("messages").addObject().put("role", "user").put("content", PROMPT);
        }
        body.put("stream", false);
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Headers and auth exactly as live traffic gets them (P-2), through the gateway's header policy. */
    static UpstreamRequest build(Account account, EndpointFamily family, String upstreamModel, String apiKey,
            String requestId, Instant now) {
        byte[] body = body(family, upstreamModel);
        List<Header> headers = List.of(new Header("content-type", "application/json"),
                new Header("accept", "application/json"), new Header("user-agent", "detour-model-test"));
        ClientCall call = new ClientCall(requestId, family, "POST", family.path(), headers, body, null, null, null,
                now, 0);
        return new UpstreamRequest("POST", account.baseUrl() + family.path(),
                HeaderPolicy.upstream(call, account, apiKey), body);
    }
}
