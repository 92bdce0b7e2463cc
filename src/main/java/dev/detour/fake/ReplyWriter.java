package dev.detour.fake;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/** Plays one {@link Reply} on a Jetty exchange with blocking writes, each one flushed. */
final class ReplyWriter {
    private static final String DONE_FRAME = "data: [DONE]\n\n";
    private static final ByteBuffer DONE = ByteBuffer.wrap(DONE_FRAME.getBytes(StandardCharsets.UTF_8));

    private final Request request;
    private final Response response;
    private final Callback callback;
    /** Blocks until the hold ends: the reply's own latch or the fake's close, whichever first. */
    private final Function<CountDownLatch, Boolean> hold;
    /** Runs just before the last byte is written or the connection is cut (the fake's concurrency count). */
    private final Runnable beforeLast;

    /** Sends the frames of replies paced with {@link Reply#every}. */
    private final FrameTicker ticker;

    ReplyWriter(Request request, Response response, Callback callback, Function<CountDownLatch, Boolean> hold,
            Runnable beforeLast, FrameTicker ticker) {
        this.ticker = ticker;
        this.request = request;
        this.response = response;
        this.callback = callback;
        this.hold = hold;
        this.beforeLast = beforeLast;
    }

    void play(Reply reply) throws IOException {
        pause(reply.latency());
        if (reply.holdAt() == Reply.BEFORE_HEADERS && !hold.apply(reply.release())) {
            cut();
            return;
        }
        response.setStatus(reply.status());
        for (String[] header : reply.headers()) {
            response.getHeaders().add(header[0], header[1]);
        }
        switch (reply.kind()) {
            case BODY -> {
                pause(reply.frameDelay()); // a plain body's slow first byte (its TTFT)
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, reply.body().length);
                write(true, ByteBuffer.wrap(reply.body()));
                callback.succeeded();
            }
            case CUT_MID_BODY -> {
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, reply.body().length + 64L);
                write(false, ByteBuffer.wrap(reply.body()));
                cut();
            }
            case HEADERS_THEN_CUT -> {
                write(false, BufferUtil.EMPTY_BUFFER);
                cut();
            }
            case SSE, RAW_SSE, SSE_THEN_CUT, RAW_SSE_THEN_CUT -> {
                if (reply.interval().isZero()) {
                    playFrames(reply);
                } else {
                    ticker.send(response, callback, beforeLast, framed(reply), reply.interval());
                }
            }
        }
    }

    private void playFrames(Reply reply) throws IOException {
        write(false, BufferUtil.EMPTY_BUFFER);
        for (int i = 0; i <= reply.frames().size(); i++) {
            if (reply.holdAt() == i && !hold.apply(reply.release())) {
                cut();
                return;
            }
            if (i == reply.frames().size()) {
                break;
            }
            pause(reply.frameDelay());
            write(false, ByteBuffer.wrap(frame(reply, i).getBytes(StandardCharsets.UTF_8)));
        }
        if (reply.kind() == Reply.Kind.SSE_THEN_CUT || reply.kind() == Reply.Kind.RAW_SSE_THEN_CUT) {
            cut();
            return;
        }
        if (reply.done()) {
            pause(reply.frameDelay());
            write(false, DONE.slice());
        }
        write(true, BufferUtil.EMPTY_BUFFER);
        callback.succeeded();
    }

    /** Every frame as it goes on the wire, [DONE] joined to the last (a paced stream ends with its last frame). */
    private static ByteBuffer[] framed(Reply reply) {
        List<String> frames = new ArrayList<>();
        for (int i = 0; i < reply.frames().size(); i++) {
            frames.add(frame(reply, i));
        }
        if (reply.done()) {
            frames.add(frames.isEmpty() ? DONE_FRAME : frames.remove(frames.size() - 1) + DONE_FRAME);
        }
        return frames.stream().map(f -> ByteBuffer.wrap(f.getBytes(StandardCharsets.UTF_8))).toArray(ByteBuffer[]::new);
    }

    private static String frame(Reply reply, int i) {
        String frame = reply.frames().get(i);
        boolean raw = reply.kind() == Reply.Kind.RAW_SSE || reply.kind() == Reply.Kind.RAW_SSE_THEN_CUT;
        return raw ? frame : sseFrame(frame);
    }

    /** A frame that already names its event ({@code event: …\ndata: …}, Anthropic and Responses) is sent as is. */
    private static String sseFrame(String frame) {
        return (frame.startsWith("event:") ? frame : "data: " + frame) + "\n\n";
    }

    /** The scripted upstream pace: this is the fake's behaviour, not a test waiting for time. */
    private static void pause(Duration delay) {
        if (!delay.isZero()) {
            LockSupport.parkNanos(TimeUnit.NANOSECONDS.convert(delay));
        }
    }

    private void write(boolean last, ByteBuffer bytes) throws IOException {
        if (last) {
            beforeLast.run();
        }
        try (Blocker.Callback written = Blocker.callback()) {
            response.write(last, bytes, written);
            written.block();
        }
    }

    /** Drops the TCP connection mid-exchange: no terminal chunk, no remaining Content-Length bytes. */
    void cut() {
        beforeLast.run();
        request.getConnectionMetaData().getConnection().getEndPoint().close();
        callback.failed(new EofException("FakeUpstream cut the connection (scripted)"));
    }
}
