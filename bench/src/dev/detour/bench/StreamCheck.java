package dev.detour.bench;

import java.nio.charset.StandardCharsets;
import org.HdrHistogram.Histogram;

/**
 * Reads one SSE response as it arrives: splits it into data frames, checks that the role frame,
 * all deltas in order and [DONE] came through, and records time to first frame and the gaps
 * between consecutive frames (microseconds). A Messages stream ({@link Dialect#MESSAGES}) is checked
 * the same way: message_start for the role frame, the words as text deltas, message_stop for [DONE].
 */
final class StreamCheck implements HttpConn.BodySink {
    static final int EXPECTED_FRAMES = Payloads.DELTAS + 2;

    /** How the protocol a stream is read in marks its start, its words and its end. */
    enum Dialect {
        CHAT("\"role\":\"assistant\"", "\"content\":\"", "[DONE]"),
        MESSAGES("\"type\":\"message_start\"", "\"text\":\"", "\"type\":\"message_stop\"");

        private final String start;
        private final String[] deltas = new String[Payloads.DELTAS];
        private final String end;

        Dialect(String start, String deltaField, String end) {
            this.start = start;
            this.end = end;
            for (int i = 0; i < deltas.length; i++) {
                deltas[i] = deltaField + Payloads.deltaWord(i) + "\"";
            }
        }
    }

    private final Dialect dialect;
    private final long sentNanos;
    private final Runnable onFirstFrame;
    private final byte[] line = new byte[4096];
    private int lineLength;
    private boolean overflow;
    private int framesOk;
    private int nextDelta;
    private boolean roleSeen;
    private boolean doneSeen;
    private long firstFrameNanos = -1;
    private long lastDeltaNanos = -1;
    private final long[] gapsMicros = new long[Payloads.DELTAS];
    private int gapCount;

    StreamCheck(long sentNanos, Runnable onFirstFrame) {
        this(Dialect.CHAT, sentNanos, onFirstFrame);
    }

    StreamCheck(Dialect dialect, long sentNanos, Runnable onFirstFrame) {
        this.dialect = dialect;
        this.sentNanos = sentNanos;
        this.onFirstFrame = onFirstFrame;
    }

    @Override
    public void accept(byte[] buf, int off, int len, long nanos) {
        for (int i = off; i < off + len; i++) {
            byte b = buf[i];
            if (b == '\n') {
                endLine(nanos);
            } else if (lineLength < line.length) {
                line[lineLength++] = b;
            } else {
                overflow = true;
            }
        }
    }

    private void endLine(long nanos) {
        int length = lineLength > 0 && line[lineLength - 1] == '\r' ? lineLength - 1 : lineLength;
        lineLength = 0;
        if (overflow || length < 5 || line[0] != 'd' || !startsWithData()) {
            overflow = false;
            return;
        }
        onFrame(new String(line, 5, length - 5, StandardCharsets.US_ASCII).trim(), nanos);
    }

    private boolean startsWithData() {
        return line[1] == 'a' && line[2] == 't' && line[3] == 'a' && line[4] == ':';
    }

    private void onFrame(String payload, long nanos) {
        if (firstFrameNanos < 0) {
            firstFrameNanos = nanos;
            onFirstFrame.run();
        }
        if (payload.contains(dialect.end)) {
            doneSeen = true;
            framesOk += nextDelta == Payloads.DELTAS ? 1 : 0;
        } else if (!roleSeen && payload.contains(dialect.start)) {
            roleSeen = true;
            framesOk++;
            lastDeltaNanos = nanos;
        } else if (nextDelta < Payloads.DELTAS
                && payload.contains(dialect.deltas[nextDelta])) {
            recordGap(nanos);
            nextDelta++;
            framesOk++;
        }
    }

    private void recordGap(long nanos) {
        if (lastDeltaNanos >= 0 && gapCount < gapsMicros.length) {
            gapsMicros[gapCount++] = (nanos - lastDeltaNanos) / 1000;
        }
        lastDeltaNanos = nanos;
    }

    /** Frames (role, 64 deltas in order, [DONE]) that did not arrive intact. */
    int lostFrames() {
        return EXPECTED_FRAMES - framesOk;
    }

    boolean firstFrameSeen() {
        return firstFrameNanos >= 0;
    }

    boolean complete() {
        return lostFrames() == 0 && doneSeen;
    }

    /** Adds this stream's TTFT and gaps to the histograms (only for complete streams). */
    void recordInto(Histogram ttftMicros, Histogram gapMicros) {
        if (firstFrameNanos >= 0) {
            ttftMicros.recordValue(Math.max(0, (firstFrameNanos - sentNanos) / 1000));
        }
        for (int i = 0; i < gapCount; i++) {
            gapMicros.recordValue(Math.max(0, gapsMicros[i]));
        }
    }
}
