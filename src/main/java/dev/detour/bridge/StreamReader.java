package dev.detour.bridge;

import com.fasterxml.jackson.databind.JsonNode;

/** B-2: reads one upstream protocol's stream events into a {@link StreamWriter}'s neutral steps. */
interface StreamReader {
    /** One upstream event: its {@code event:} name (null when absent) and its data parsed. */
    void read(String name, JsonNode data, StreamWriter to);

    /** The upstream wrote {@code data: [DONE]}. */
    default void done(StreamWriter to) {
    }

    /**
     * The upstream said its answer ended but its terminal frame has not come (a Chat finish_reason waits
     * for the usage chunk and [DONE]): if its body ends now, the stream still ended cleanly.
     */
    default boolean endPending() {
        return false;
    }

    /** The text of a field, or null when it is missing, null or not a string. */
    static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.isTextual() ? value.asText() : null;
    }
}
