package dev.detour.gateway.wire;

import dev.detour.core.account.EndpointFamily;
import dev.detour.core.failure.StreamTerminalScanner;
import dev.detour.core.secret.SecretMask;
import dev.detour.core.usage.TokenUsage;
import dev.detour.gateway.port.NonBlockingClient;
import dev.detour.gateway.port.ResponseSink;
import dev.detour.gateway.port.UpstreamResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Relays a streaming answer after its first frame was judged (P-6): every read is written at once
 * and flushed as soon as nothing more has arrived, terminal markers and usage are tracked, and the
 * outcome says whether the stream completed, was truncated upstream, or the client went away (P-7).
 *
 * <p>Each read is written up to its last line end; a line cut by the read waits for its end (an SSE
 * client dispatches nothing before the blank line that ends an event, so this costs it no time). That
 * keeps every SSE line whole when it is written, so a line the scanner found to be an upstream error
 * event is masked before it reaches the client — only those lines, never the whole answer.
 */
public final class StreamRelay {
    /** A line longer than this is passed on in pieces, unmasked (an error event is never this long). */
    static final int MAX_HELD_LINE = 64 * 1024;

    /**
     * @param usageSeen        P-7': some frame carried a usage object (a cut after it is still charged)
     * @param costMicros       S-7: the last cost a frame's usage reported, -1 when none did
     * @param upstreamFailure  F-4: the upstream sent an error event of its own (relayed, masked)
     */
    public record Result(boolean truncated, boolean clientGone, TokenUsage usage, boolean usageSeen,
            long firstWriteNanos,
            long bytes, long costMicros, boolean upstreamFailure) {
    }

    private final StreamTerminalScanner scanner = new StreamTerminalScanner();
    private final SecretMask mask;
    private final UsageLines usage;
    private byte[] held = new byte[0];
    private int heldLength;
    private long written;

    /** @param protocol the protocol the upstream streams in (its usage frames are read in it) */
    public StreamRelay(SecretMask mask, EndpointFamily protocol) {
        this.mask = mask;
        this.usage = new UsageLines(protocol);
    }

    public Result relay(UpstreamResponse response, byte[] head, ResponseSink sink) {
        return relay(response, head, sink, (buffer, n) -> pass(buffer, 0, n, sink), () -> writeHeldRest(sink),
                this::result);
    }

    /** A last line without its end: whatever it is, it leaves masked. */
    private void writeHeldRest(ResponseSink sink) throws ResponseSink.ClientGoneException {
        if (heldLength > 0) {
            byte[] rest = mask.apply(Arrays.copyOf(held, heldLength));
            heldLength = 0;
            sink.write(rest, 0, rest.length);
            sink.flush();
            written += rest.length;
        }
    }

    /**
     * The relay loop both relays share (native and bridged, B-3): the head first, flushed; then every read of the
     * upstream body; then the relay's own ending; the upstream closed after a whole body, aborted after a failed
     * read or a client that left.
     */
    static Result relay(UpstreamResponse response, byte[] head, ResponseSink sink, Reads reads, Ending ending,
            Results results) {
        long firstWrite = 0;
        try {
            reads.pass(head, head.length);
            sink.flush();
            firstWrite = System.nanoTime();
            boolean readFailed = readAll(response, reads, sink);
            ending.write();
            if (readFailed) {
                response.abort();
            } else {
                response.close();
            }
            return results.of(false, firstWrite);
        } catch (ResponseSink.ClientGoneException e) {
            response.abort();
            return results.of(true, firstWrite);
        }
    }

    /** What a relay writes once the upstream body ended or broke. */
    interface Ending {
        void write() throws ResponseSink.ClientGoneException;
    }

    /** A relay's result: truncated only when the client was still there to see the end. */
    interface Results {
        Result of(boolean clientGone, long firstWriteNanos);
    }

    /** One read's bytes handled; true when something was written (and is to be flushed). */
    interface Reads {
        boolean pass(byte[] buffer, int length) throws ResponseSink.ClientGoneException;
    }

    /**
     * Hands every read of the upstream body to {@code reads} until the body ends; true when a read failed (cut,
     * reset or read-gap timeout: whether that truncated is the scanner's call). What was written is flushed
     * before any read that may wait for the network, and only then: frames that arrived together (an upstream
     * writes each as its own chunk, and under load several come in one socket read) leave in one write, and
     * none waits for a frame that has not arrived. Where the upstream and the client allow it, the wait for the
     * next bytes is a shared thread's ({@link UpstreamResponse#pump}), which relays them as they come.
     */
    static boolean readAll(UpstreamResponse response, Reads reads, ResponseSink sink)
            throws ResponseSink.ClientGoneException {
        InputStream in = response.body();
        byte[] buffer = new byte[8192];
        boolean unflushed = false;
        NonBlockingClient client = sink.nonBlocking();
        while (true) {
            if (unflushed && !arrived(in)) {
                sink.flush();
                unflushed = false;
            }
            if (client != null && !unflushed && !arrived(in)) {
                Pumped pumped = new Pumped(in, buffer, reads, sink, client);
                if (!response.pump(client, pumped)) {
                    client = null; // this body is never pumped: read it here to the end
                } else if (pumped.endedRelay()) {
                    return true;
                } else if (pumped.clientBehind) {
                    continue; // what the client had not taken left blocking: the pump can go on
                }
            }
            int n;
            try {
                n = in.read(buffer);
            } catch (IOException e) {
                flushIf(unflushed, sink);
                return true;
            }
            if (n < 0) {
                flushIf(unflushed, sink);
                return false;
            }
            if (n > 0 && reads.pass(buffer, n)) {
                unflushed = true;
            }
        }
    }

    /**
     * N-7: the relay loop's step for bytes that arrived, run on the pump's thread: every read that does not wait is
     * passed on, then flushed. What ends the relay (a failed read, a client gone, a bug) is kept for the stream's
     * own thread, which goes on from where the pump left it; so is a client that did not take the write at once.
     */
    private static final class Pumped implements UpstreamResponse.Arrivals {
        private final InputStream in;
        private final byte[] buffer;
        private final Reads reads;
        private final ResponseSink sink;
        private final NonBlockingClient client;
        private boolean readFailed;
        /** The client did not take a write at once: its thread writes the rest, blocking. */
        boolean clientBehind;
        private ResponseSink.ClientGoneException gone;
        private RuntimeException failed;

        Pumped(InputStream in, byte[] buffer, Reads reads, ResponseSink sink, NonBlockingClient client) {
            this.in = in;
            this.buffer = buffer;
            this.reads = reads;
            this.sink = sink;
            this.client = client;
        }

        @Override
        public boolean arrived() {
            try {
                boolean wrote = false;
                try {
                    while (in.available() > 0) {
                        int n = in.read(buffer);
                        if (n < 0) {
                            break;
                        }
                        wrote |= n > 0 && reads.pass(buffer, n);
                    }
                } catch (IOException e) {
                    readFailed = true;
                }
                if (wrote) {
                    sink.flush();
                }
                clientBehind = !client.keptUp();
                return !readFailed && !clientBehind;
            } catch (ResponseSink.ClientGoneException e) {
                gone = e;
            } catch (RuntimeException e) {
                failed = e;
            }
            return false;
        }

        /** Back on the stream's thread: true when a read failed; a client gone or a bug is thrown as it came. */
        boolean endedRelay() throws ResponseSink.ClientGoneException {
            if (gone != null) {
                throw gone;
            }
            if (failed != null) {
                throw failed;
            }
            return readFailed;
        }
    }

    /** Whether the next read returns without waiting for the network (a stream that cannot tell says no). */
    private static boolean arrived(InputStream in) {
        try {
            return in.available() > 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static void flushIf(boolean unflushed, ResponseSink sink) throws ResponseSink.ClientGoneException {
        if (unflushed) {
            sink.flush();
        }
    }

    private Result result(boolean clientGone, long firstWrite) {
        return new Result(!clientGone && scanner.truncated(), clientGone, usage.usage(), usage.usageSeen(), firstWrite,
                written, usage.costMicros(), scanner.sawFailureEvent());
    }

    /**
     * Tracks and writes one read: the held line head plus everything up to the read's last line end;
     * what follows it is held. Masked only when one of those lines was an upstream error event.
     *
     * @return true when something was written
     */
    private boolean pass(byte[] bytes, int offset, int length, ResponseSink sink)
            throws ResponseSink.ClientGoneException {
        int failuresBefore = scanner.failureLines();
        scanner.feed(bytes, offset, length);
        usage.feed(bytes, offset, length);
        int end = offset + length;
        int lineEnd = lastLineEnd(bytes, offset, end);
        if (lineEnd < 0) {
            if (heldLength + length <= MAX_HELD_LINE) {
                hold(bytes, offset, length);
                return false;
            }
            lineEnd = end - 1; // an overlong line goes on as it comes
        }
        int upTo = lineEnd + 1;
        if (scanner.failureLines() != failuresBefore) {
            // an upstream error event's text is masked like every other relayed error
            byte[] lines = new byte[heldLength + upTo - offset];
            System.arraycopy(held, 0, lines, 0, heldLength);
            System.arraycopy(bytes, offset, lines, heldLength, upTo - offset);
            byte[] masked = mask.apply(lines);
            sink.write(masked, 0, masked.length);
            written += masked.length;
        } else {
            if (heldLength > 0) {
                sink.write(held, 0, heldLength);
                written += heldLength;
            }
            sink.write(bytes, offset, upTo - offset);
            written += upTo - offset;
        }
        heldLength = 0;
        hold(bytes, upTo, end - upTo);
        return true;
    }

    /** The index of the last \n or \r in the range, or -1; a read usually ends with one. */
    private static int lastLineEnd(byte[] bytes, int offset, int end) {
        for (int i = end - 1; i >= offset; i--) {
            if (bytes[i] == '\n' || bytes[i] == '\r') {
                return i;
            }
        }
        return -1;
    }

    private void hold(byte[] bytes, int offset, int length) {
        if (length <= 0) {
            return;
        }
        if (heldLength + length > held.length) {
            held = Arrays.copyOf(held, Math.max(heldLength + length, Math.max(256, held.length * 2)));
        }
        System.arraycopy(bytes, offset, held, heldLength, length);
        heldLength += length;
    }
}
