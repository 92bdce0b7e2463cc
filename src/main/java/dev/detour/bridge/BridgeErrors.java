package dev.detour.bridge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.failure.UpstreamErrorFields;
import dev.detour.core.secret.SecretMask;

/**
 * B-2: an upstream's error answer (one the gateway returns to the client, the "none" class of F-1, such as a
 * 400, or the last answer of a failed stream) in the client's envelope (P-8'): OpenAI
 * {@code {"error":{"message","type","param","code"}}}, Anthropic {@code {"type":"error","error":{"type","message"}}}.
 * The status is kept, except that overload has a status of its own at Anthropic (529) which OpenAI
 * clients do not know: 529 becomes 503 for them, and 503 becomes 529 for Anthropic clients. The
 * {@code type} follows the status in the client's vocabulary; OpenAI's {@code code} is the upstream's
 * code when it gave one. The message is the upstream's, masked; never a URL or key of Detour's.
 */
public final class BridgeErrors {
    static final int ANTHROPIC_OVERLOADED = 529;
    private static final int MESSAGE_LIMIT = 2000;

    private BridgeErrors() {
    }

    /** An error answer: the status to send and the body in the client's envelope. */
    public record BridgedError(int status, ObjectNode body) {
    }

    public static BridgedError translate(EndpointFamily client, int status, String upstreamBody, SecretMask mask) {
        UpstreamErrorFields fields = UpstreamErrorFields.parse(upstreamBody == null ? "" : upstreamBody);
        String message = fields.message() != null && !fields.message().isBlank()
                ? SecretMask.cut(mask.apply(fields.message()), MESSAGE_LIMIT)
                : "the upstream answered HTTP " + status;
        ObjectNode body = Json.object();
        if (client.protocol() == EndpointFamily.Protocol.ANTHROPIC) {
            int out = status == 503 ? ANTHROPIC_OVERLOADED : status;
            body.put("type", "error");
            body.putObject("error").put("type", anthropicType(out)).put("message", message);
            return new BridgedError(out, body);
        }
        int out = status == ANTHROPIC_OVERLOADED ? 503 : status;
        ObjectNode error = body.putObject("error").put("message", message).put("type", openAiType(out));
        error.putNull("param");
        error.put("code", fields.code() == null ? null : mask.apply(fields.code()));
        return new BridgedError(out, body);
    }

    static String anthropicType(int status) {
        return switch (status) {
            case 401 -> "authentication_error";
            case 402 -> "billing_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            case 413 -> "request_too_large";
            case 429 -> "rate_limit_error";
            case 504 -> "timeout_error";
            case ANTHROPIC_OVERLOADED -> "overloaded_error";
            default -> status >= 500 ? "api_error" : "invalid_request_error";
        };
    }

    static String openAiType(int status) {
        return switch (status) {
            case 401 -> "authentication_error";
            case 403 -> "permission_error";
            case 429 -> "rate_limit_error";
            default -> status >= 500 ? "server_error" : "invalid_request_error";
        };
    }
}
