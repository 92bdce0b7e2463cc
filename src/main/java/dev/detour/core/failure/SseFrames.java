package dev.detour.core.failure;

/**
 * Reading SSE text for F-4: the first data frame that carries something (comment lines, empty
 * frames and {@code [DONE]} skipped). Lenient: a frame cut off at the end of the text still counts.
 */
public final class SseFrames {
    private SseFrames() {
    }

    /** True when the text looks like an SSE stream rather than a JSON document or plain text. */
    public static boolean looksLikeSse(String body) {
        String t = body == null ? "" : body.replace("\uFEFF", "").stripLeading();
        return t.startsWith("data:") || t.startsWith("event:") || t.startsWith(":") || t.startsWith("id:")
                || t.startsWith("retry:");
    }

    /** The payload of the first meaningful data frame (data lines joined with \n), or null. */
    public static String firstDataFrame(String body) {
        if (body == null) {
            return null;
        }
        StringBuilder frame = new StringBuilder();
        boolean inFrame = false;
        String text = body.startsWith("\uFEFF") ? body.substring(1) : body;
        for (String raw : text.split("\r\n|\r|\n", -1)) {
            if (raw.isEmpty()) {
                if (meaningful(frame, inFrame)) {
                    return frame.toString();
                }
                frame.setLength(0);
                inFrame = false;
            } else if (raw.startsWith("data:")) {
                String value = raw.substring(5);
                value = value.startsWith(" ") ? value.substring(1) : value;
                frame.append(inFrame ? "\n" : "").append(value);
                inFrame = true;
            }
            // comment lines (":"), event:, id:, retry: carry no payload
        }
        return meaningful(frame, inFrame) ? frame.toString() : null;
    }

    /**
     * True once the first meaningful data frame has ended (a blank line after it) — lets the streaming
     * path wait until the first frame is whole before judging it (P-6).
     */
    public static boolean firstDataFrameComplete(String body) {
        if (body == null) {
            return false;
        }
        String normalized = body.replace("\r\n", "\n").replace('\r', '\n');
        int from = 0;
        while (true) {
            int end = normalized.indexOf("\n\n", from);
            if (end < 0) {
                return false;
            }
            if (firstDataFrame(normalized.substring(0, end + 2)) != null) {
                return true;
            }
            from = end + 1;
        }
    }

    private static boolean meaningful(StringBuilder frame, boolean inFrame) {
        if (!inFrame) {
            return false;
        }
        String payload = frame.toString().trim();
        return !payload.isEmpty() && !payload.equals("[DONE]");
    }
}
