package dev.detour.bridge;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * B-5: a local estimate of what {@code POST /v1/messages/count_tokens} answers, for an account that cannot
 * count Claude's tokens itself (it speaks another protocol). Never exact — Claude's tokenizer is not public —
 * and labelled as an estimate wherever it is shown. Counted: the system prompt, every message's text, tool
 * calls (name and input), tool results (their text and images), tool definitions (name, description, schema
 * as JSON) plus the tool-use system prompt Anthropic adds when tools are given ({@value #TOOL_PROMPT}), and
 * images at a flat {@value #IMAGE} each (Anthropic's largest image before it resizes, 1,092 × 1,092 px, is
 * about 1,600 tokens; smaller ones cost less, so an image is never under-counted), documents at a flat
 * {@value #DOCUMENT}. Thinking blocks of earlier turns are not counted (Anthropic ignores them too).
 *
 * <p>Text is counted as a byte-pair tokenizer roughly splits it: a run of letters is one token per
 * {@value #LETTERS_PER_TOKEN} letters (rounded up), digits one per three, a run of punctuation one per two
 * characters, whitespace nothing, and every other character (CJK and the like) one each. Pure: no I/O.
 */
public final class TokenEstimate {
    static final int IMAGE = 1_600;
    static final int DOCUMENT = 2_000;
    static final int TOOL_PROMPT = 346;
    static final int LETTERS_PER_TOKEN = 7;
    /** The request's own framing, and each turn's role marker. */
    static final int REQUEST = 4;
    static final int PER_MESSAGE = 2;

    private TokenEstimate() {
    }

    /** The estimated {@code input_tokens} of a Messages (count_tokens) request body. */
    public static int inputTokens(JsonNode body) {
        long tokens = REQUEST + content(body.get("system"));
        JsonNode messages = body.path("messages");
        for (JsonNode message : messages) {
            tokens += PER_MESSAGE + content(message.get("content"));
        }
        JsonNode tools = body.path("tools");
        if (tools.isArray() && !tools.isEmpty()) {
            tokens += TOOL_PROMPT;
            for (JsonNode tool : tools) {
                tokens += text(tool.path("name").asText("")) + text(tool.path("description").asText(""));
                JsonNode schema = tool.get("input_schema");
                tokens += schema == null ? text(tool.toString()) : text(schema.toString());
            }
        }
        return (int) Math.min(Integer.MAX_VALUE, tokens);
    }

    /** A string, or a list of content blocks. */
    private static long content(JsonNode content) {
        if (content == null || content.isNull()) {
            return 0;
        }
        if (content.isTextual()) {
            return text(content.asText());
        }
        long tokens = 0;
        for (JsonNode block : content) {
            tokens += block(block);
        }
        return tokens;
    }

    private static long block(JsonNode block) {
        return switch (block.path("type").asText("")) {
            case "text" -> text(block.path("text").asText(""));
            case "image" -> IMAGE;
            case "document" -> DOCUMENT;
            case "tool_use", "server_tool_use" -> text(block.path("name").asText("")) + text(block.path("input").toString());
            case "tool_result" -> content(block.get("content"));
            case "thinking", "redacted_thinking" -> 0;
            default -> text(block.toString()); // a block Detour does not know: its JSON, as an upper bound
        };
    }

    /** Tokens of one piece of text, per the rule in the class comment. */
    static long text(String s) {
        long tokens = 0;
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            int start = i;
            if (isLetter(c)) {
                while (i < n && isLetter(s.charAt(i))) {
                    i++;
                }
                tokens += (i - start + LETTERS_PER_TOKEN - 1) / LETTERS_PER_TOKEN;
            } else if (c >= '0' && c <= '9') {
                while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                    i++;
                }
                tokens += (i - start + 2) / 3;
            } else if (Character.isWhitespace(c)) {
                i++;
            } else if (c < 128) {
                while (i < n && s.charAt(i) < 128 && !isLetter(s.charAt(i)) && !Character.isWhitespace(s.charAt(i))
                        && !(s.charAt(i) >= '0' && s.charAt(i) <= '9')) {
                    i++;
                }
                tokens += (i - start + 1) / 2;
            } else {
                i += Character.charCount(s.codePointAt(i));
                tokens++;
            }
        }
        return tokens;
    }

    private static boolean isLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
}
