package dev.detour.server;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * the slowest request body a client may send, judged only on what the client did.
 *
 * <p>Not Jetty's own minimum ({@code HttpConfiguration.setMinRequestDataRate}): at every read it sets the
 * bytes Detour has taken in against the time since Detour took the first, so time Detour's worker spends
 * waiting for a CPU between two reads (a loaded machine, a GC pause, a parked virtual thread whose data is
 * already there) is charged to the client. A 300-byte body that arrived whole had 0.29 s of slack at
 * 1,024 B/s before the read that finds its end; under load a few requests in a few hundred got 408
 * {@code request.too_slow}. Here the question is asked only when nothing is buffered — every byte the client
 * sent so far has been counted, however late Detour came to read it — and the answer holds only when the
 * client then sends more: a body that has ended is never too slow.
 *
 * <p>Two faces for one rule: a servlet filter (the console and the APIs read bodies through servlets) and
 * {@link #around(Handler)} for the relay, a core handler that reads its request's content directly.
 */
public final class MinimumBodyRate implements Filter {
    private final long bytesPerSecond;
    private final LongSupplier nanoTime;

    /**
     * @param bytesPerSecond the minimum average rate since the body's first byte; 0 = none
     * @param nanoTime       the monotonic clock in nanoseconds ({@code System::nanoTime} outside tests)
     */
    public MinimumBodyRate(long bytesPerSecond, LongSupplier nanoTime) {
        this.bytesPerSecond = bytesPerSecond;
        this.nanoTime = nanoTime;
    }

    /** A body that arrives slower than the minimum: the proxy answers 408 {@code request.too_slow}. */
    public static final class TooSlowException extends IOException {
        TooSlowException() {
            super("the request body arrived too slowly");
        }
    }

    /** {@code body} read through this rate's check. */
    public ServletInputStream watch(ServletInputStream body) {
        return bytesPerSecond <= 0 ? body : new Watched(body);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        chain.doFilter(bytesPerSecond <= 0 ? request : new HttpServletRequestWrapper((HttpServletRequest) request) {
            private ServletInputStream watched;

            @Override
            public ServletInputStream getInputStream() throws IOException {
                if (watched == null) {
                    watched = watch(super.getInputStream());
                }
                return watched;
            }
        }, response);
    }

    /**
     * The same rule for a core handler: its requests' content is read through the pace. A read that finds
     * nothing is where Detour starts to wait for the client; the next bytes are too slow when the client was
     * already behind then. Once too slow, every later read is too (the body is not taken).
     */
    public Handler around(Handler next) {
        return bytesPerSecond <= 0 ? next : new Handler.Wrapper(next) {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                return super.handle(new PacedRequest(request), response, callback);
            }
        };
    }

    private final class PacedRequest extends Request.Wrapper {
        private final Pace pace = new Pace();
        private boolean behind;
        private Content.Chunk tooSlow;

        PacedRequest(Request request) {
            super(request);
        }

        @Override
        public Content.Chunk read() {
            if (tooSlow != null) {
                return tooSlow;
            }
            Content.Chunk chunk = super.read();
            if (chunk == null) {
                behind = pace.behind(); // nothing here: what comes next is the client's pace
                return null;
            }
            if (Content.Chunk.isFailure(chunk) || !chunk.hasRemaining()) {
                return chunk;
            }
            try {
                pace.counted(chunk.remaining(), behind);
            } catch (TooSlowException e) {
                chunk.release();
                tooSlow = Content.Chunk.from(e, true);
                return tooSlow;
            }
            behind = false;
            return chunk;
        }
    }

    /**
     * A new body's pace, for a reader that asks {@link Pace#behind()} itself (the front's body stream); null when
     * there is no minimum.
     */
    public Pace pace() {
        return bytesPerSecond <= 0 ? null : new Pace();
    }

    /** One body's pace: the bytes counted since its first one arrived. */
    public final class Pace {
        private long firstByteNanos;
        private long received;

        private Pace() {
        }

        /** Asked when nothing the client sent is waiting to be read: has it kept the rate since its first byte? */
        public boolean behind() {
            if (received == 0) {
                return false; // nothing sent yet: the client timeout covers that
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(nanoTime.getAsLong() - firstByteNanos);
            return received < bytesPerSecond * millis / 1000;
        }

        /**
         * @param n         bytes just read (≤ 0: the end of the body)
         * @param wasBehind what {@link #behind()} said before the read that waited for them
         * @throws TooSlowException when the client was behind and then sent more
         */
        public void counted(int n, boolean wasBehind) throws TooSlowException {
            if (n <= 0) {
                return; // the end of the body: it came, whatever the pace
            }
            if (wasBehind) {
                throw new TooSlowException();
            }
            if (received == 0) {
                firstByteNanos = nanoTime.getAsLong();
            }
            received += n;
        }
    }

    private final class Watched extends ServletInputStream {
        private final ServletInputStream in;
        private final Pace pace = new Pace();

        Watched(ServletInputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            boolean behind = behindBeforeWaiting();
            int b = in.read();
            pace.counted(b < 0 ? -1 : 1, behind);
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            boolean behind = behindBeforeWaiting();
            int n = in.read(buffer, offset, length);
            pace.counted(n, behind);
            return n;
        }

        /** Asked before a read that will wait for the client (nothing buffered: Detour is not the one behind). */
        private boolean behindBeforeWaiting() throws IOException {
            return pace.received > 0 && in.available() <= 0 && pace.behind();
        }

        @Override
        public int available() throws IOException {
            return in.available();
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
