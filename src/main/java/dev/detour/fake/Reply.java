package dev.detour.fake;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.zip.GZIPOutputStream;

/**
 * One scripted FakeUpstream answer. Build with the static factories, refine with the withers
 * (each returns a new Reply). A hold waits on {@link #releasedBy(CountDownLatch)}'s latch, or
 * until the fake closes; never on a timer.
 *
 * @param holdAt where the reply stops until released: {@link #NO_HOLD}, {@link #BEFORE_HEADERS},
 *               0 = right after the headers, n = after the n-th SSE frame
 */
public record Reply(Kind kind, int status, List<String[]> headers, byte[] body, List<String> frames,
                    boolean done, Duration frameDelay, int holdAt, CountDownLatch release, Duration latency,
                    Duration interval) {
    public static final int NO_HOLD = -2;
    public static final int BEFORE_HEADERS = -1;

    public enum Kind {
        /** Status, headers, a Content-Length body. */
        BODY,
        /**
         * text/event-stream, each frame {@code data: …\n\n} flushed alone, then [DONE] unless omitted; a frame
         * starting with {@code event:} is a whole named-event frame and is sent unchanged.
         */
        SSE,
        /** SSE frames, then the connection is cut without the terminal chunk. */
        SSE_THEN_CUT,
        /** Raw SSE text in pieces, each written and flushed exactly as given, then the stream ends normally. */
        RAW_SSE,
        /** Raw SSE text in pieces, each written and flushed exactly as given, then the connection is cut. */
        RAW_SSE_THEN_CUT,
        /** Headers announce more than {@code body}; it is sent, then the connection is cut. */
        CUT_MID_BODY,
        /** Status and headers (chunked), then the connection is cut with no body byte. */
        HEADERS_THEN_CUT
    }

    public static Reply json(int status, String body) {
        return bytes(Kind.BODY, status, "application/json", body);
    }

    public static Reply text(int status, String body) {
        return bytes(Kind.BODY, status, "text/plain; charset=utf-8", body);
    }

    public static Reply openAiError(int status, String message, String code) {
        return json(status, Bodies.openAiError(status, message, code));
    }

    public static Reply chatCompletion() {
        return json(200, Bodies.chatCompletion());
    }

    public static Reply sse(List<String> dataFrames) {
        return new Reply(Kind.SSE, 200, eventStreamHeaders(), new byte[0], List.copyOf(dataFrames), true,
                Duration.ZERO, NO_HOLD, null, Duration.ZERO, Duration.ZERO);
    }

    /** Named-event frames ({@code event: x\ndata: {…}}) as Anthropic and Responses streams send them; no [DONE]. */
    public static Reply sseEvents(List<String> eventFrames) {
        return sse(eventFrames).withoutDone();
    }

    /** Frames, then an abrupt close: no [DONE], no terminal chunk. */
    public static Reply sseThenCut(List<String> dataFrames) {
        return new Reply(Kind.SSE_THEN_CUT, 200, eventStreamHeaders(), new byte[0], List.copyOf(dataFrames), false,
                Duration.ZERO, NO_HOLD, null, Duration.ZERO, Duration.ZERO);
    }

    /**
     * Raw SSE text (event: lines, CRLF, a line split between two pieces), each piece written and flushed
     * alone with no framing added, then an abrupt close: no terminal chunk.
     */
    public static Reply rawSseThenCut(List<String> pieces) {
        return new Reply(Kind.RAW_SSE_THEN_CUT, 200, eventStreamHeaders(), new byte[0], List.copyOf(pieces), false,
                Duration.ZERO, NO_HOLD, null, Duration.ZERO, Duration.ZERO);
    }

    /** Raw SSE text in pieces (whole frames, [DONE] included if wanted), each written and flushed as given. */
    public static Reply rawSse(List<String> pieces) {
        return new Reply(Kind.RAW_SSE, 200, eventStreamHeaders(), new byte[0], List.copyOf(pieces), false,
                Duration.ZERO, NO_HOLD, null, Duration.ZERO, Duration.ZERO);
    }

    /** Accepts the request and sends nothing until released; then the default chat completion. */
    public static Reply stallBeforeHeaders() {
        return chatCompletion().holdAt(BEFORE_HEADERS);
    }

    /** 200 text/event-stream headers flushed, then silence until released; then [DONE]. */
    public static Reply stallAfterHeaders() {
        return sse(List.of()).holdAt(0);
    }

    /** The first frame flushed, then silence until released; then the other frames and [DONE]. */
    public static Reply stallAfterFirstFrame(List<String> dataFrames) {
        return sse(dataFrames).holdAt(1);
    }

    /** 200 with a Content-Length larger than {@code partialBody}: the part is sent, then the connection is cut. */
    public static Reply closeMidBody(String partialBody) {
        return bytes(Kind.CUT_MID_BODY, 200, "application/json", partialBody);
    }

    /** 200 headers (chunked framing), then the connection is cut before any body byte. */
    public static Reply emptyBodyClose() {
        return bytes(Kind.HEADERS_THEN_CUT, 200, "application/json", "");
    }

    public Reply header(String name, String value) {
        List<String[]> more = new ArrayList<>(headers);
        more.add(new String[] {name, value});
        return new Reply(kind, status, List.copyOf(more), body, frames, done, frameDelay, holdAt, release, latency, interval);
    }

    public Reply withoutDone() {
        return new Reply(kind, status, headers, body, frames, false, frameDelay, holdAt, release, latency, interval);
    }

    /**
     * A pause before each SSE frame, or before a plain body's first byte (a slow TTFT): a scripted
     * upstream pace for demos, benchmarks and latency ranking.
     */
    public Reply frameDelay(Duration delay) {
        return new Reply(kind, status, headers, body, frames, done, delay, holdAt, release, latency, interval);
    }

    /** A pause before the status line, whatever the kind: a slow upstream's time to first byte. */
    public Reply latency(Duration wait) {
        return new Reply(kind, status, headers, body, frames, done, frameDelay, holdAt, release, wait, interval);
    }

    /**
     * SSE frames {@code interval} apart, the first at once and [DONE] with the last, reckoned from the
     * start of the answer so a late frame does not delay the next. Unlike {@link #frameDelay} no thread
     * waits: one {@link FrameTicker} sends the frames of every such stream, so a thousand held streams
     * cost no thread each (the bench). Not combined with a hold.
     */
    public Reply every(Duration interval) {
        return new Reply(kind, status, headers, body, frames, done, frameDelay, holdAt, release, latency, interval);
    }

    public Reply withStatus(int code) {
        return new Reply(kind, code, headers, body, frames, done, frameDelay, holdAt, release, latency, interval);
    }

    public Reply holdAt(int position) {
        return new Reply(kind, status, headers, body, frames, done, frameDelay, position, release, latency, interval);
    }

    /** The hold ends when {@code latch} reaches zero (or the fake closes), instead of only at close. */
    public Reply releasedBy(CountDownLatch latch) {
        return new Reply(kind, status, headers, body, frames, done, frameDelay, holdAt, latch, latency, interval);
    }

    /** Sends the body gzip-compressed with {@code Content-Encoding: gzip}. */
    public Reply gzip() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
            zip.write(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Reply(kind, status, headers, out.toByteArray(), frames, done, frameDelay, holdAt, release, latency, interval)
                .header("Content-Encoding", "gzip");
    }

    private static Reply bytes(Kind kind, int status, String contentType, String body) {
        return new Reply(kind, status, List.<String[]>of(new String[] {"Content-Type", contentType}),
                body.getBytes(StandardCharsets.UTF_8), List.of(), false, Duration.ZERO, NO_HOLD, null, Duration.ZERO, Duration.ZERO);
    }

    private static List<String[]> eventStreamHeaders() {
        return List.of(new String[] {"Content-Type", "text/event-stream"}, new String[] {"Cache-Control", "no-cache"});
    }
}
