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
    private static final int LINE_HEAD = 64;

    private final StringBuilder tail = new StringBuilder();
    private final StringBuilder pendingWhitespace = new StringBuilder();
    private final StringBuilder lineHead = new StringBuilder();
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
            pendingWhitespace.setLength(0);
            afterColon = true;
            emit(c);
        } else if (c == ' ' || c == '\t') {
            if (!afterColon) {
                pendingWhitespace.append(c);
            }
        } else {
            if (!pendingWhitespace.isEmpty()) {
                for (int i = 0; i < pendingWhitespace.length(); i++) {
                    emit(pendingWhitespace.charAt(i));
                }
                pendingWhitespace.setLength(0);
            }
            afterColon = false;
            emit(c);
        }
    }

    private void emit(char c) {
        tail.append(c);
        if (tail.length() > 2 * WINDOW) {
            tail.delete(0, tail.length() - WINDOW);
        }
        for (String marker : MARKERS) {
            if (marker.charAt(marker.length() - 1) == c && endsWith(marker)) {
                terminal = true;
                return;
            }
        }
    }

    private boolean endsWith(String marker) {
        int start = tail.length() - marker.length();
        return start >= 0 && tail.indexOf(marker, start) == start;
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
