package dev.detour.bridge;

/**
 * B-2: why an answer ended, in one vocabulary for the three client protocols. Each protocol's value
 * maps in and out; where a protocol has no word for a reason it gets the nearest one (Chat Completions
 * says {@code stop} both for a natural end and for a stop sequence).
 */
public enum StopReason {
    END, MAX_TOKENS, STOP_SEQUENCE, TOOL_USE, CONTENT_FILTER, REFUSAL, PAUSE;

    /** Chat Completions {@code finish_reason}; null or unknown reads as END. */
    public static StopReason fromChat(String finishReason) {
        if (finishReason == null) {
            return END;
        }
        return switch (finishReason) {
            case "length" -> MAX_TOKENS;
            case "tool_calls", "function_call" -> TOOL_USE;
            case "content_filter" -> CONTENT_FILTER;
            default -> END;
        };
    }

    public String toChat() {
        return switch (this) {
            case MAX_TOKENS -> "length";
            case TOOL_USE -> "tool_calls";
            case CONTENT_FILTER, REFUSAL -> "content_filter";
            case END, STOP_SEQUENCE, PAUSE -> "stop";
        };
    }

    /** Messages {@code stop_reason}; null or unknown reads as END. */
    public static StopReason fromMessages(String stopReason) {
        if (stopReason == null) {
            return END;
        }
        return switch (stopReason) {
            case "max_tokens", "model_context_window_exceeded" -> MAX_TOKENS;
            case "stop_sequence" -> STOP_SEQUENCE;
            case "tool_use" -> TOOL_USE;
            case "refusal" -> REFUSAL;
            case "pause_turn" -> PAUSE;
            default -> END;
        };
    }

    public String toMessages() {
        return switch (this) {
            case MAX_TOKENS -> "max_tokens";
            case STOP_SEQUENCE -> "stop_sequence";
            case TOOL_USE -> "tool_use";
            case REFUSAL, CONTENT_FILTER -> "refusal";
            case PAUSE -> "pause_turn";
            case END -> "end_turn";
        };
    }

    /**
     * Responses: the response {@code status}, its {@code incomplete_details.reason}, and whether the output
     * holds a function call (Responses has no stop reason for tool use: a completed response that calls a tool).
     */
    public static StopReason fromResponses(String status, String incompleteReason, boolean callsTool) {
        if ("incomplete".equals(status)) {
            return "content_filter".equals(incompleteReason) ? CONTENT_FILTER : MAX_TOKENS;
        }
        return callsTool ? TOOL_USE : END;
    }

    /** The Responses {@code status} this reason ends with: {@code completed} or {@code incomplete}. */
    public String toResponsesStatus() {
        return this == MAX_TOKENS || this == CONTENT_FILTER ? "incomplete" : "completed";
    }

    /** The {@code incomplete_details.reason} of an incomplete response, null for a completed one. */
    public String toResponsesIncompleteReason() {
        return switch (this) {
            case MAX_TOKENS -> "max_output_tokens";
            case CONTENT_FILTER -> "content_filter";
            default -> null;
        };
    }
}
