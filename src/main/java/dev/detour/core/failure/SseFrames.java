package dev.detour.core.failure;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

/**
 * The one SSE framer (F-4, P-6): fed bytes as they arrive, it returns the data of the first complete
 * event its filter accepts (data lines joined with \n; comment, event:, id: and retry: lines carry no
 * payload). Lines end at \n, \r\n or \r; a blank line ends an event. Data bytes are kept as bytes and
 * decoded once per event, so a UTF-8 character split across reads is never mangled. The request path
 * feeds it upstream reads (first-frame hold); the classifier feeds it a body's text. Not thread-safe.
 */
public final class SseFrames {
    /** Any event with non-blank data (the first-frame hold judges even {@code [DONE]}). */
    public static final Predicate<String> NON_BLANK = data -> !data.isBlank();
    /** F-4: a frame that carries something: not blank, not {@code [DONE]}. */
    public static final Predicate<String> MEANINGFUL = data -> !data.trim().isEmpty() && !data.trim().equals("[DONE]");

    private final Predicate<String> wanted;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(128);
    private final ByteArrayOutputStream data = new ByteArrayOutputStream(256);
    private boolean hasData;
    private boolean afterCr;
    private int bomLeft = 3;

    public SseFrames(Predicate<String> wanted) {
        this.wanted = wanted;
    }

    /** @return the data of the first accepted event completed by these bytes, else null */
    public String feed(byte[] bytes, int offset, int length) {
        int end = offset + length;
        int start = skipBom(bytes, offset, end);
        for (int i = start; i < end; i++) {
            byte b = bytes[i];
            if (b == '\n' && afterCr) {
                afterCr = false; // the \n of a \r\n: the line already ended at the \r
                start = i + 1;
                continue;
            }
            afterCr = b == '\r';
            if (b == '\n' || b == '\r') {
                line.write(bytes, start, i - start);
                start = i + 1;
                String event = endLine();
                if (event != null) {
                    return event;
                }
            }
        }
        line.write(bytes, start, end - start);
        return null;
    }

    /** The stream ended: an event cut off at the end still counts (lenient, F-4). */
    public String finish() {
        if (line.size() > 0) {
            String event = endLine();
            if (event != null) {
                return event;
            }
        }
        return endEvent();
    }

    /** A UTF-8 byte-order mark at the very start is not part of the first line. */
    private int skipBom(byte[] bytes, int offset, int end) {
        int i = offset;
        while (bomLeft > 0 && i < end) {
            if (bytes[i] != BOM[3 - bomLeft]) {
                if (bomLeft < 3) {
                    line.write(BOM, 0, 3 - bomLeft); // not a BOM after all: keep what was held back
                }
                bomLeft = 0;
                return i;
            }
            bomLeft--;
            i++;
        }
        return i;
    }

    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    private String endLine() {
        bomLeft = 0;
        byte[] l = line.toByteArray();
        line.reset();
        if (l.length == 0) {
            return endEvent();
        }
        if (l.length >= 5 && l[0] == 'd' && l[1] == 'a' && l[2] == 't' && l[3] == 'a' && l[4] == ':') {
            int from = l.length > 5 && l[5] == ' ' ? 6 : 5;
            if (hasData) {
                data.write('\n');
            }
            data.write(l, from, l.length - from);
            hasData = true;
        }
        return null;
    }

    private String endEvent() {
        if (!hasData) {
            return null;
        }
        String payload = data.toString(StandardCharsets.UTF_8);
        data.reset();
        hasData = false;
        return wanted.test(payload) ? payload : null;
    }

    /** True when the text looks like an SSE stream rather than a JSON document or plain text. */
    public static boolean looksLikeSse(String body) {
        String t = body == null ? "" : body.replace("\uFEFF", "").stripLeading();
        return t.startsWith("data:") || t.startsWith("event:") || t.startsWith(":") || t.startsWith("id:")
                || t.startsWith("retry:");
    }

    /** The payload of the first meaningful data frame (a frame cut off at the end counts), or null. */
    public static String firstDataFrame(String body) {
        if (body == null) {
            return null;
        }
        SseFrames frames = new SseFrames(MEANINGFUL);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String found = frames.feed(bytes, 0, bytes.length);
        return found != null ? found : frames.finish();
    }

    /**
     * True once the first meaningful data frame has ended (a blank line after it) — lets the streaming
     * path wait until the first frame is whole before judging it (P-6).
     */
    public static boolean firstDataFrameComplete(String body) {
        if (body == null) {
            return false;
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return new SseFrames(MEANINGFUL).feed(bytes, 0, bytes.length) != null;
    }
}
