package dev.detour.gateway.wire;

import dev.detour.core.account.EndpointFamily;
import dev.detour.core.selection.PoolErrorCode;
import java.nio.charset.StandardCharsets;

/**
 * Detour's own errors in the envelope of the client's protocol (P-8): OpenAI
 * {@code {"error":{…}}}, Anthropic {@code {"type":"error","error":{…}}}. Messages never carry an
 * upstream URL or key.
 */
public final class DetourErrorBody {
    private static final String MODEL_UNMATCHED = PoolErrorCode.MODEL_UNMATCHED.code();

    private DetourErrorBody() {
    }

    public static byte[] of(EndpointFamily.Protocol protocol, String code, String message) {
        return of(protocol, code, null, message);
    }

    /**
     * With an explicit {@code error.type} (P-8': {@code not_found_error}, {@code rate_limit_error},
     * {@code overloaded_error}, …); null keeps the family's default for the code.
     */
    public static byte[] of(EndpointFamily.Protocol protocol, String code, String type, String message) {
        String escaped = escape(message);
        String json = protocol == EndpointFamily.Protocol.ANTHROPIC
                ? "{\"type\":\"error\",\"error\":{\"type\":\"" + (type != null ? type : anthropicType(code))
                        + "\",\"code\":\"" + code + "\",\"message\":\"" + escaped + "\"}}"
                : "{\"error\":{\"message\":\"" + escaped + "\",\"type\":\"" + (type != null ? type : "detour_error")
                        + "\",\"code\":\"" + openAiCode(code) + "\"" + detourCodeBeside(code) + "}}";
        return json.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The {@code error.code} an OpenAI client acts on. Codex gives up on a 404 at once only when the code
     * is OpenAI's {@code model_not_found} (any other 404 it retries as a broken turn), so an unmapped model
     * answers that code, with Detour's stable code beside it in {@code detour_code}.
     */
    public static String openAiCode(String code) {
        return code.equals(MODEL_UNMATCHED) ? "model_not_found" : code;
    }

    public static String detourCodeBeside(String code) {
        return code.equals(MODEL_UNMATCHED) ? ",\"detour_code\":\"" + code + "\"" : "";
    }

    private static String anthropicType(String code) {
        if (code.equals("auth.throttled")) {
            return "rate_limit_error"; // a 429, which Anthropic's clients know by this type
        }
        if (code.startsWith("auth.")) {
            return "authentication_error";
        }
        if (code.startsWith("request.")) {
            return "invalid_request_error";
        }
        return code.startsWith("key.") ? "permission_error" : "api_error";
    }

    public static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
