package dev.detour.core.failure;

import java.math.BigDecimal;
import java.util.Map;

/**
 * The failure fields of one JSON document (F-4): code from {@code response.error.code} |
 * {@code error.code} | top {@code code}; type only from {@code response.error.type} |
 * {@code error.type} (never the envelope's own {@code type}); message from
 * {@code response.error.message} | {@code error.message} | top {@code message}.
 *
 * @param structuralFailure the document is structurally a failure (F-4 rules)
 */
public record UpstreamErrorFields(String code, String type, String message, boolean structuralFailure) {
    public static final UpstreamErrorFields EMPTY = new UpstreamErrorFields(null, null, null, false);

    /** Reads a parsed document; anything but an object yields {@link #EMPTY}. */
    public static UpstreamErrorFields read(Object document) {
        Map<String, Object> root = asObject(document);
        if (root == null) {
            return EMPTY;
        }
        Map<String, Object> response = asObject(root.get("response"));
        Map<String, Object> responseError = response == null ? null : asObject(response.get("error"));
        Map<String, Object> error = asObject(root.get("error"));
        String code = first(text(responseError, "code"), text(error, "code"), text(root, "code"));
        String type = first(string(responseError, "type"), string(error, "type"));
        String message = first(string(responseError, "message"), string(error, "message"), string(root, "message"));
        return new UpstreamErrorFields(code, type, message, isStructuralFailure(root, response, error));
    }

    /** The kind of a top-level value, as a streaming reader reports it to {@link #feedsEnvelope}. */
    public enum TopValue { STRING, NUMBER, OBJECT, OTHER }

    /**
     * Whether one top-level field of a JSON object could make {@link #read} anything but
     * {@link #EMPTY}: code, message, error, response, a failed type or status. A 2xx JSON object with
     * none of them is a success for {@link FailureClassifier#classify}, so a caller that streams the
     * answer once can judge it without a String copy and a second parse.
     *
     * @param text the value when it is a string, else null
     */
    public static boolean feedsEnvelope(String field, TopValue kind, String text) {
        return switch (field) {
            case "code" -> kind == TopValue.STRING || kind == TopValue.NUMBER;
            case "message" -> kind == TopValue.STRING;
            case "error", "response" -> kind == TopValue.OBJECT;
            case "type" -> kind == TopValue.STRING && "response.failed".equals(text);
            case "status" -> kind == TopValue.STRING && "failed".equals(text);
            default -> false;
        };
    }

    /** Parses the text first; invalid JSON yields {@link #EMPTY}. */
    public static UpstreamErrorFields parse(String json) {
        return read(LenientJson.parse(json));
    }

    private static boolean isStructuralFailure(Map<String, Object> root, Map<String, Object> response,
            Map<String, Object> error) {
        if ("response.failed".equals(string(root, "type"))) {
            return true;
        }
        if (response != null && "failed".equals(string(response, "status"))) {
            return true;
        }
        // An error object with a string message or code; an error that is a plain string is not.
        if (error != null && (string(error, "message") != null || string(error, "code") != null)) {
            return true;
        }
        if ("failed".equals(string(root, "status"))) {
            return true;
        }
        return string(root, "code") != null && string(root, "message") != null;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> asObject(Object value) {
        return value instanceof Map ? (Map<String, Object>) value : null;
    }

    private static String string(Map<String, Object> object, String field) {
        if (object == null) {
            return null;
        }
        Object value = object.get(field);
        return value instanceof String s ? s : null;
    }

    /** A string, or a number's plain text (codes such as 429 arrive as numbers too). */
    private static String text(Map<String, Object> object, String field) {
        if (object == null) {
            return null;
        }
        Object value = object.get(field);
        if (value instanceof BigDecimal n) {
            return n.toPlainString();
        }
        return value instanceof String s ? s : null;
    }

    private static String first(String... values) {
        for (String v : values) {
            if (v != null) {
                return v;
            }
        }
        return null;
    }
}
