package dev.detour.fake;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
    private static final ByteBuffer DONE = ByteBuffer.wrap("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));

    private final Request request;
    private final Response response;
    private final Callback callback;
    /** Blocks until the hold ends: the reply's own latch or the fake's close, whichever first. */
    private final Function<CountDownLatch, Boolean> hold;
    /** Runs just before the last byte is written or the connection is cut (the fake's concurrency count). */
    private final Runnable beforeLast;

    ReplyWriter(Request request, Response response, Callback callback, Function<CountDownLatch, Boolean> hold,
            Runnable beforeLast) {
        this.request = request;
        this.response = response;
        this.callback = callback;
        this.hold = hold;
        this.beforeLast = beforeLast;
    }

    void play(Reply reply) throws IOException {
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
                pause(reply); // a plain body's slow first byte (its TTFT)
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
            case SSE, SSE_THEN_CUT, RAW_SSE_THEN_CUT -> playFrames(reply);
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
            pause(reply);
            String frame = reply.kind() == Reply.Kind.RAW_SSE_THEN_CUT ? reply.frames().get(i)
                    : sseFrame(reply.frames().get(i));
            write(false, ByteBuffer.wrap(frame.getBytes(StandardCharsets.UTF_8)));
        }
        if (reply.kind() == Reply.Kind.SSE_THEN_CUT || reply.kind() == Reply.Kind.RAW_SSE_THEN_CUT) {
            cut();
            return;
        }
        if (reply.done()) {
            pause(reply);
            write(false, DONE.slice());
        }
        write(true, BufferUtil.EMPTY_BUFFER);
        callback.succeeded();
    }

    /** A frame that already names its event ({@code event: …\ndata: …}, Anthropic and Responses) is sent as is. */
    private static String sseFrame(String frame) {
        return (frame.startsWith("event:") ? frame : "data: " + frame) + "\n\n";
    }

    /** The scripted upstream pace: this is the fake's behaviour, not a test waiting for time. */
    private static void pause(Reply reply) {
        if (!reply.frameDelay().isZero()) {
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.NANOSECONDS.convert(reply.frameDelay()));
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
