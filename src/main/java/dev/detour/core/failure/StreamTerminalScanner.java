package dev.detour.core.failure;

/**
 * F-4' / P-6: watches an SSE stream chunk by chunk for a terminal marker, for "carried at least one
 * non-empty data frame" and for failure events — judged by the stream's structure, never by a
 * substring of generated text. Recognised:
 * <ul>
 * <li>the {@code event:} line's name: {@code message_stop}, {@code response.completed},
 *     {@code response.incomplete} end the stream; {@code error} and {@code response.failed} are failures;</li>
 * <li>in a data line's JSON, the top-level {@code "type"} string (same names), a {@code finish_reason}
 *     ({@code stop|length|tool_calls|content_filter}) or {@code finishReason} ({@code STOP}) key at any
 *     depth, and a top-level {@code "error"} object (a failure);</li>
 * <li>{@code data: [DONE]} as the whole data of a line.</li>
 * </ul>
 * A key is a key only where JSON allows one (after {@code {} or {@code ,} in an object), so
 * {@code "message_stop"} or {@code \"finish_reason\":\"stop\"} inside generated content never count.
 * Cheap enough for every frame of every stream (git 521c9c5): one pass per byte with a few flags, no
 * JSON tree and no copy; inside a string that is not captured the loop only looks for its end.
 * Bytes are read as Latin-1: every structural char is ASCII and UTF-8 multi-byte sequences never
 * contain ASCII bytes, so byte and char chunks reach the same verdict. Not thread-safe: one per stream.
 */
public final class StreamTerminalScanner {
    private static final int FIELD = 0;
    private static final int DATA = 1;
    private static final int EVENT = 2;
    private static final int SKIP = 3;

    private static final int EXPECT_OTHER = 0;
    private static final int EXPECT_KEY = 1;
    private static final int EXPECT_COLON = 2;
    private static final int EXPECT_VALUE = 3;

    private static final int KEY_NONE = 0;
    private static final int KEY_TYPE = 1;
    private static final int KEY_FINISH = 2;
    private static final int KEY_FINISH_CAMEL = 3;
    private static final int KEY_ERROR = 4;

    /** Longer keys and values are none of ours: capture stops there. */
    private static final int CAPTURE = 24;
    /** "[DONE]" with a little whitespace around it. */
    private static final int DONE_CAPTURE = 16;

    // ---- line state ----
    private int line = FIELD;
    private boolean firstLine = true;
    private final char[] field = new char[6];
    private int fieldLength;
    private boolean skipOneSpace;
    private boolean afterCr;
    private final char[] eventName = new char[CAPTURE];
    private int eventNameLength;
    private final char[] dataHead = new char[DONE_CAPTURE];
    private int dataLength;
    private boolean dataNonBlank;
    private boolean lineFailure;

    // ---- event state (one SSE event: up to a blank line) ----
    private boolean eventFailure;

    // ---- JSON structure of the event's data ----
    private int depth;
    private long objectBits; // bit d set: the container at depth d+1 is an object
    private boolean inString;
    private boolean escape;
    private int expect = EXPECT_OTHER;
    private int pendingKey = KEY_NONE;
    private boolean capturing;
    private boolean captureIsKey;
    private final char[] capture = new char[CAPTURE];
    private int captureLength;

    // ---- verdicts ----
    private boolean terminal;
    private boolean sawData;
    private boolean sawFailure;
    private int failureLines;

    public void feed(String chunk) {
        for (int i = 0; i < chunk.length(); i++) {
            accept(chunk.charAt(i));
        }
    }

    public void feed(byte[] buffer, int offset, int length) {
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            byte b = buffer[i];
            if (inString && !capturing && !escape && line == DATA && b != '"' && b != '\\' && b != '\n' && b != '\r') {
                dataLength++; // generated text: nothing in it can be structure
                continue;
            }
            accept((char) (b & 0xff));
        }
    }

    /** A terminal marker has been seen. */
    public boolean sawTerminal() {
        return terminal;
    }

    /** At least one data frame with non-blank content has been seen (a last line without newline counts). */
    public boolean sawDataFrame() {
        return sawData || (line == DATA && dataNonBlank);
    }

    /** The stream, now ended, carried data but no terminal marker. */
    public boolean truncated() {
        return sawDataFrame() && !terminal;
    }

    /**
     * The stream carried a failure event of its own: an {@code event: error} / {@code response.failed},
     * a data {@code type} of those, or a top-level {@code error} object (F-4).
     */
    public boolean sawFailureEvent() {
        return sawFailure;
    }

    /**
     * How many completed data lines belonged to a failure event so far; a relay compares it before and
     * after a chunk to know that chunk carries upstream error text to mask.
     */
    public int failureLines() {
        return failureLines;
    }

    private void accept(char c) {
        if (c == '\n' || c == '\r') {
            if (c == '\n' && afterCr) {
                afterCr = false; // the \n of a \r\n: the line ended at the \r
                return;
            }
            afterCr = c == '\r';
            endLine();
            return;
        }
        afterCr = false;
        switch (line) {
            case FIELD -> fieldChar(c);
            case DATA -> dataChar(c);
            case EVENT -> {
                if (skipOneSpace) {
                    skipOneSpace = false;
                    if (c == ' ') {
                        return;
                    }
                }
                if (eventNameLength < CAPTURE) {
                    eventName[eventNameLength] = c;
                }
                eventNameLength++;
            }
            default -> {
            }
        }
    }

    private void fieldChar(char c) {
        if (firstLine && fieldLength == 0 && (c == '\uFEFF' || c == 0xEF || c == 0xBB || c == 0xBF)) {
            return; // a UTF-8 byte-order mark (as one char, or as its three bytes) is not part of the first field
        }
        if (c != ':') {
            if (fieldLength < field.length) {
                field[fieldLength] = c;
            }
            fieldLength++;
            return;
        }
        skipOneSpace = true;
        if (is(field, fieldLength, "data")) {
            line = DATA;
        } else if (is(field, fieldLength, "event")) {
            line = EVENT;
        } else {
            line = SKIP; // comments (":"), id:, retry:, unknown fields
        }
    }

    private void dataChar(char c) {
        if (skipOneSpace) {
            skipOneSpace = false;
            if (c == ' ') {
                return;
            }
        }
        if (dataLength < DONE_CAPTURE) {
            dataHead[dataLength] = c;
        }
        dataLength++;
        if (c != ' ' && c != '\t') {
            dataNonBlank = true;
        }
        json(c);
    }

    private void endLine() {
        firstLine = false;
        switch (line) {
            case FIELD -> {
                if (fieldLength == 0) {
                    endEvent(); // a blank line ends the event
                }
            }
            case DATA -> {
                if (dataNonBlank) {
                    sawData = true;
                    if (dataLength <= DONE_CAPTURE && isDone()) {
                        terminal = true;
                    }
                }
                if (lineFailure || eventFailure) {
                    eventFailure = true; // the following data lines of this event too
                    sawFailure = true;
                    failureLines++;
                }
            }
            case EVENT -> eventNamed();
            default -> {
            }
        }
        line = FIELD;
        fieldLength = 0;
        dataLength = 0;
        dataNonBlank = false;
        lineFailure = false;
        eventNameLength = 0;
        skipOneSpace = false;
    }

    private void eventNamed() {
        if (eventNameLength > CAPTURE) {
            return;
        }
        if (is(eventName, eventNameLength, "message_stop") || is(eventName, eventNameLength, "response.completed")
                || is(eventName, eventNameLength, "response.incomplete")) {
            terminal = true;
        } else if (is(eventName, eventNameLength, "error") || is(eventName, eventNameLength, "response.failed")) {
            eventFailure = true;
            sawFailure = true;
        }
    }

    private void endEvent() {
        eventFailure = false;
        depth = 0;
        objectBits = 0;
        inString = false;
        escape = false;
        expect = EXPECT_OTHER;
        pendingKey = KEY_NONE;
        capturing = false;
    }

    /** The data line, trimmed, is exactly {@code [DONE]}. */
    private boolean isDone() {
        int from = 0;
        int to = dataLength;
        while (from < to && Character.isWhitespace(dataHead[from])) {
            from++;
        }
        while (to > from && Character.isWhitespace(dataHead[to - 1])) {
            to--;
        }
        if (to - from != 6) {
            return false;
        }
        return dataHead[from] == '[' && dataHead[from + 1] == 'D' && dataHead[from + 2] == 'O'
                && dataHead[from + 3] == 'N' && dataHead[from + 4] == 'E' && dataHead[from + 5] == ']';
    }

    // ---- a JSON lexer just deep enough to tell keys from values ----

    private void json(char c) {
        if (inString) {
            if (escape) {
                escape = false;
                captureLength = CAPTURE + 1; // an escaped key or value is none of ours
            } else if (c == '\\') {
                escape = true;
            } else if (c == '"') {
                inString = false;
                stringEnded();
            } else if (capturing) {
                if (captureLength < CAPTURE) {
                    capture[captureLength] = c;
                }
                captureLength++;
            }
            return;
        }
        switch (c) {
            case ' ', '\t' -> {
            }
            case '"' -> {
                inString = true;
                captureIsKey = expect == EXPECT_KEY;
                capturing = captureIsKey || (expect == EXPECT_VALUE && pendingKey != KEY_NONE
                        && pendingKey != KEY_ERROR);
                captureLength = 0;
            }
            case '{' -> {
                if (expect == EXPECT_VALUE && pendingKey == KEY_ERROR) {
                    lineFailure = true; // F-4: a top-level error member that is an object
                }
                if (depth < 64) {
                    objectBits |= 1L << depth;
                }
                depth++;
                expect = EXPECT_KEY;
                pendingKey = KEY_NONE;
            }
            case '[' -> {
                if (depth < 64) {
                    objectBits &= ~(1L << depth);
                }
                depth++;
                expect = EXPECT_VALUE;
                pendingKey = KEY_NONE;
            }
            case '}', ']' -> {
                depth = Math.max(0, depth - 1);
                expect = EXPECT_OTHER;
                pendingKey = KEY_NONE;
            }
            case ':' -> {
                if (expect == EXPECT_COLON) {
                    expect = EXPECT_VALUE;
                } else {
                    expect = EXPECT_OTHER;
                    pendingKey = KEY_NONE;
                }
            }
            case ',' -> {
                expect = inObject() ? EXPECT_KEY : EXPECT_VALUE;
                pendingKey = KEY_NONE;
            }
            default -> { // numbers, true/false/null, or anything that is no JSON at all
                expect = EXPECT_OTHER;
                pendingKey = KEY_NONE;
            }
        }
    }

    private boolean inObject() {
        return depth > 0 && depth <= 64 && (objectBits & (1L << (depth - 1))) != 0;
    }

    private void stringEnded() {
        boolean wasCapturing = capturing;
        capturing = false;
        if (captureIsKey) {
            captureIsKey = false;
            pendingKey = wasCapturing && captureLength <= CAPTURE ? keyId() : KEY_NONE;
            expect = EXPECT_COLON;
            return;
        }
        if (wasCapturing && captureLength <= CAPTURE) {
            value();
        }
        pendingKey = KEY_NONE;
        expect = EXPECT_OTHER;
    }

    private int keyId() {
        if (depth == 1 && is(capture, captureLength, "type")) {
            return KEY_TYPE;
        }
        if (depth == 1 && is(capture, captureLength, "error")) {
            return KEY_ERROR;
        }
        if (is(capture, captureLength, "finish_reason")) {
            return KEY_FINISH;
        }
        return is(capture, captureLength, "finishReason") ? KEY_FINISH_CAMEL : KEY_NONE;
    }

    private void value() {
        switch (pendingKey) {
            case KEY_TYPE -> {
                if (is(capture, captureLength, "message_stop") || is(capture, captureLength, "response.completed")
                        || is(capture, captureLength, "response.incomplete")) {
                    terminal = true;
                } else if (is(capture, captureLength, "error") || is(capture, captureLength, "response.failed")) {
                    lineFailure = true;
                }
            }
            case KEY_FINISH -> {
                if (is(capture, captureLength, "stop") || is(capture, captureLength, "length")
                        || is(capture, captureLength, "tool_calls") || is(capture, captureLength, "content_filter")) {
                    terminal = true;
                }
            }
            case KEY_FINISH_CAMEL -> {
                if (is(capture, captureLength, "STOP")) {
                    terminal = true;
                }
            }
            default -> {
            }
        }
    }

    private static boolean is(char[] chars, int length, String word) {
        if (length != word.length()) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (chars[i] != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
