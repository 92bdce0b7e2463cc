package dev.detour.gateway;

import dev.detour.core.account.EndpointFamily;
import dev.detour.core.selection.ModelCatalog;
import dev.detour.core.selection.PoolErrorCode;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.gateway.port.ClientCall;
import dev.detour.gateway.wire.DetourErrorBody;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * P-9 / P-12: {@code GET /v1/models} and {@code GET /v1/models/{id}} in the caller's protocol. An
 * Anthropic caller (an {@code anthropic-version} or {@code x-api-key} header: what the Anthropic SDKs
 * and Claude Code always send) gets Anthropic's shape — {@code type}, {@code display_name},
 * {@code created_at}, {@code has_more}, {@code first_id}, {@code last_id}; everyone else OpenAI's.
 * Detour knows no creation date or display name: {@code created} is 0 (the epoch) and the display
 * name is the id. The list is never paged ({@code has_more:false}; Anthropic's {@code limit},
 * {@code after_id} and {@code before_id} are ignored).
 */
final class ModelsEndpoint {
    static final String LIST_PATH = "/v1/models";
    private static final String EPOCH = "1970-01-01T00:00:00Z";

    record Answer(int status, String errorCode, byte[] body) {
    }

    private ModelsEndpoint() {
    }

    /** True for a caller speaking Anthropic's API (P-12). */
    static boolean anthropicCaller(ClientCall call) {
        return call.header("anthropic-version") != null || call.header("x-api-key") != null;
    }

    static Answer answer(PoolSnapshot.View view, ClientCall call) {
        boolean anthropic = anthropicCaller(call);
        // B-5: every account that can answer this caller, natively or through a bridge
        EndpointFamily.Protocol caller = anthropic ? EndpointFamily.Protocol.ANTHROPIC : EndpointFamily.Protocol.OPENAI;
        String id = requestedId(call.pathAndQuery());
        var policy = call.key().policy();
        if (id == null) {
            List<String> names = ModelCatalog.clientModels(view.accounts(), policy, caller);
            return new Answer(200, null, anthropic ? anthropicList(names) : openAiList(names));
        }
        if (ModelCatalog.serves(view.accounts(), policy, id, caller)) {
            String one = anthropic ? anthropicModel(id) : openAiModel(id);
            return new Answer(200, null, one.getBytes(StandardCharsets.UTF_8));
        }
        // the real APIs answer 404 for a model the caller cannot use; the code says which reason
        String code = policy.allowsModel(id) ? PoolErrorCode.MODEL_UNMATCHED.code()
                : PoolErrorCode.KEY_MODEL_NOT_ALLOWED.code();
        String message = "model " + id + " is not available to this key; request " + call.requestId();
        return new Answer(404, code, notFound(anthropic, code, message));
    }

    /** The id of {@code /v1/models/{id}} (percent-decoded; may contain '/'), or null for the list. */
    static String requestedId(String pathAndQuery) {
        int q = pathAndQuery.indexOf('?');
        String path = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
        if (path.length() <= LIST_PATH.length() + 1) {
            return null;
        }
        return percentDecode(path.substring(LIST_PATH.length() + 1));
    }

    private static String percentDecode(String raw) {
        if (raw.indexOf('%') < 0) {
            return raw;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%' && i + 2 < raw.length()
                    && Character.digit(raw.charAt(i + 1), 16) >= 0 && Character.digit(raw.charAt(i + 2), 16) >= 0) {
                out.write(Integer.parseInt(raw, i + 1, i + 3, 16));
                i += 2;
            } else {
                byte[] bytes = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                out.write(bytes, 0, bytes.length);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static byte[] openAiList(List<String> names) {
        StringBuilder json = new StringBuilder("{\"object\":\"list\",\"data\":[");
        for (int i = 0; i < names.size(); i++) {
            json.append(i > 0 ? "," : "").append(openAiModel(names.get(i)));
        }
        return json.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] anthropicList(List<String> names) {
        StringBuilder json = new StringBuilder("{\"data\":[");
        for (int i = 0; i < names.size(); i++) {
            json.append(i > 0 ? "," : "").append(anthropicModel(names.get(i)));
        }
        json.append("],\"has_more\":false,\"first_id\":").append(names.isEmpty() ? "null" : quoted(names.get(0)))
                .append(",\"last_id\":").append(names.isEmpty() ? "null" : quoted(names.get(names.size() - 1)));
        return json.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String openAiModel(String id) {
        return "{\"id\":" + quoted(id) + ",\"object\":\"model\",\"created\":0,\"owned_by\":\"detour\"}";
    }

    private static String anthropicModel(String id) {
        return "{\"type\":\"model\",\"id\":" + quoted(id) + ",\"display_name\":" + quoted(id)
                + ",\"created_at\":\"" + EPOCH + "\"}";
    }

    /** The real APIs' 404 types: Anthropic {@code not_found_error}, OpenAI {@code invalid_request_error}. */
    private static byte[] notFound(boolean anthropic, String code, String message) {
        String json = anthropic
                ? "{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"code\":\"" + code + "\",\"message\":"
                        + quoted(message) + "}}"
                : "{\"error\":{\"message\":" + quoted(message) + ",\"type\":\"invalid_request_error\",\"param\":"
                        + "\"model\",\"code\":\"" + DetourErrorBody.openAiCode(code) + "\""
                        + DetourErrorBody.detourCodeBeside(code) + "}}";
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private static String quoted(String s) {
        return "\"" + DetourErrorBody.escape(s) + "\"";
    }
}
