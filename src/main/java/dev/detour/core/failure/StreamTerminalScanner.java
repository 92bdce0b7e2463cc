package dev.detour.core.failure;

import java.util.List;

/**
 * F-4 / P-6: watches an SSE stream chunk by chunk for a terminal marker and for "carried at least one
 * non-empty data frame". A marker split across chunks still counts; whitespace around a colon is
 * ignored ({@code "finish_reason": "stop"}, {@code data: [DONE]}). Bytes are read as Latin-1: every
 * marker is ASCII and UTF-8 multi-byte sequences never contain ASCII bytes, so byte and char chunks
 * reach the same verdict. Not thread-safe: one scanner per stream.
 */
public final class StreamTerminalScanner {
    /** Markers as seen after whitespace around colons is dropped. */
    static final List<String> MARKERS = List.of(
            "response.completed", "data:[DONE]", "message_stop",
            "\"finish_reason\":\"stop\"", "\"finish_reason\":\"length\"", "\"finish_reason\":\"tool_calls\"",
            "\"finish_reason\":\"content_filter\"", "\"finishReason\":\"STOP\"");
    private static final int WINDOW = MARKERS.stream().mapToInt(String::length).max().orElse(0);
    /** Chars that end some marker: only on those is the tail compared (a stream is mostly other chars). */
    private static final boolean[] ENDS_A_MARKER = new boolean[128];
    private static final int LINE_HEAD = 64;

    static {
        for (String marker : MARKERS) {
            ENDS_A_MARKER[marker.charAt(marker.length() - 1)] = true;
        }
    }

    /** The last {@link #WINDOW} emitted chars, a ring: {@code next} is where the next one goes. */
    private final char[] tail = new char[WINDOW];
    private int next;
    private int filled;
    private final StringBuilder lineHead = new StringBuilder();
    /** Blanks seen since the last char: dropped before a colon, otherwise they count as one blank. */
    private boolean pendingBlank;
    private boolean afterColon;
    private boolean lineJudged;
    private boolean terminal;
    private boolean sawData;

    public void feed(String chunk) {
        for (int i = 0; i < chunk.length(); i++) {
            accept(chunk.charAt(i));
        }
    }

    public void feed(byte[] buffer, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            accept((char) (buffer[i] & 0xff));
        }
    }

    /** A terminal marker has been seen. */
    public boolean sawTerminal() {
        return terminal;
    }

    /** At least one data frame with non-blank content has been seen. */
    public boolean sawDataFrame() {
        judgeLine();
        return sawData;
    }

    /** The stream, now ended, carried data but no terminal marker. */
    public boolean truncated() {
        return sawDataFrame() && !terminal;
    }

    private void accept(char c) {
        trackLine(c);
        if (terminal) {
            return;
        }
        if (c == ':') {
            pendingBlank = false;
            afterColon = true;
            emit(c);
        } else if (c == ' ' || c == '\t') {
            pendingBlank |= !afterColon;
        } else {
            if (pendingBlank) {
                emit(' '); // no marker holds a blank: one stands for any run of them
                pendingBlank = false;
            }
            afterColon = false;
            emit(c);
        }
    }

    private void emit(char c) {
        tail[next] = c;
        next = next + 1 == WINDOW ? 0 : next + 1;
        filled = Math.min(filled + 1, WINDOW);
        if (c >= ENDS_A_MARKER.length || !ENDS_A_MARKER[c]) {
            return;
        }
        for (String marker : MARKERS) {
            if (endsWith(marker)) {
                terminal = true;
                return;
            }
        }
    }

    private boolean endsWith(String marker) {
        int length = marker.length();
        if (length > filled) {
            return false;
        }
        int at = next;
        for (int i = length - 1; i >= 0; i--) {
            at = at == 0 ? WINDOW - 1 : at - 1;
            if (tail[at] != marker.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Looks at the head of each line: "data:" followed by something other than whitespace. */
    private void trackLine(char c) {
        if (sawData) {
            return; // settled for good: no line head to copy per line any more
        }
        if (c == '\n' || c == '\r') {
            judgeLine();
            lineHead.setLength(0);
            lineJudged = false;
            return;
        }
        if (lineJudged) {
            return;
        }
        lineHead.append(c);
        if (lineHead.length() >= LINE_HEAD || (lineHead.length() > 5 && !Character.isWhitespace(c))) {
            judgeLine();
        }
    }

    private void judgeLine() {
        if (lineJudged || lineHead.length() < 5) {
            return;
        }
        String head = lineHead.toString();
        if (head.startsWith("data:") && !head.substring(5).isBlank()) {
            sawData = true;
        }
        lineJudged = head.length() >= LINE_HEAD || sawData || !head.startsWith("data:");
    }
}
