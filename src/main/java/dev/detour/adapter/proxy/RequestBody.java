package dev.detour.adapter.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.util.Blocker;

/**
 * A relayed request's body as a blocking stream over the core request's content. Unlike Jetty's own
 * {@code Content.Source.asInputStream}, {@link #available()} also takes what has reached the connection
 * since the last read (a read that does not wait), as the servlet layer's stream did: X-4's minimum rate
 * and {@link RequestBodyReader} ask it to tell "the client is slow" from "Detour has not read yet".
 * A failure Jetty reports (the client gone, an idle timeout, a body it could not parse) is thrown at
 * every read from then on. One request, one thread; {@link #release()} when the request is done.
 */
final class RequestBody extends InputStream {
    private final Content.Source source;
    private final Blocker.Shared blocker = new Blocker.Shared();
    private Content.Chunk chunk;

    RequestBody(Content.Source source) {
        this.source = source;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        while (true) {
            if (chunk == null && (chunk = source.read()) == null) {
                awaitContent();
                continue;
            }
            if (Content.Chunk.isFailure(chunk)) {
                throw failure(chunk.getFailure());
            }
            ByteBuffer buffer = chunk.getByteBuffer();
            if (buffer.hasRemaining()) {
                int n = Math.min(length, buffer.remaining());
                buffer.get(bytes, offset, n);
                if (!buffer.hasRemaining()) {
                    release();
                }
                return n;
            }
            if (chunk.isLast()) {
                return -1;
            }
            release(); // an empty chunk that is not the end
        }
    }

    @Override
    public int available() {
        if (chunk == null) {
            chunk = source.read(); // never waits
        }
        return chunk == null || Content.Chunk.isFailure(chunk) ? 0 : chunk.remaining();
    }

    /** Gives the chunk in hand back to Jetty's pool; the end of the body (or a failure) stays known. */
    void release() {
        if (chunk != null && !Content.Chunk.isFailure(chunk)) {
            boolean last = chunk.isLast();
            chunk.release();
            chunk = last ? Content.Chunk.EOF : null;
        }
    }

    private void awaitContent() throws IOException {
        try (Blocker.Runnable arrived = blocker.runnable()) {
            source.demand(arrived);
            arrived.block();
        }
    }

    /** IO and Jetty's own (runtime) failures as they are; anything else (an idle timeout) as its cause. */
    private static IOException failure(Throwable failure) {
        if (failure instanceof IOException io) {
            return io;
        }
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        return new IOException(failure);
    }
}
