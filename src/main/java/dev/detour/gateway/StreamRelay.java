package dev.detour.gateway;

import dev.detour.core.failure.StreamTerminalScanner;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Relays a streaming answer after its first frame was judged (P-6): every read is written and
 * flushed at once, terminal markers and usage are tracked, and the outcome says whether the
 * stream completed, was truncated upstream, or the client went away (P-7).
 */
final class StreamRelay {
    /** @param costMicros S-7: the last cost a frame's usage reported, -1 when none did */
    record Result(boolean truncated, boolean clientGone, Usage usage, long firstWriteNanos, long bytes,
            long costMicros) {
    }

    private final StreamTerminalScanner scanner = new StreamTerminalScanner();
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
    private Usage usage = Usage.NONE;
    private long costMicros = -1;

    Result relay(UpstreamResponse response, byte[] head, ResponseSink sink) {
        long firstWrite = 0;
        long bytes = 0;
        try {
            track(head, 0, head.length);
            sink.write(head, 0, head.length);
            sink.flush();
            firstWrite = System.nanoTime();
            bytes = head.length;
            InputStream in = response.body();
            byte[] buffer = new byte[8192];
            int n;
            while ((n = readQuietly(in, buffer)) > 0) {
                track(buffer, 0, n);
                sink.write(buffer, 0, n);
                sink.flush();
                bytes += n;
            }
            response.close();
            return new Result(scanner.truncated(), false, usage, firstWrite, bytes, costMicros);
        } catch (ResponseSink.ClientGoneException e) {
            response.abort();
            return new Result(false, true, usage, firstWrite, bytes, costMicros);
        }
    }

    /** An upstream read error ends the stream here; whether that was a truncation is the scanner's call. */
    private static int readQuietly(InputStream in, byte[] buffer) {
        try {
            return in.read(buffer);
        } catch (IOException e) {
            return -1;
        }
    }

    private void track(byte[] bytes, int offset, int length) {
        scanner.feed(bytes, offset, length);
        int start = offset;
        for (int i = offset; i < offset + length; i++) {
            if (bytes[i] == '\n') {
                line.write(bytes, start, i - start);
                completeLine();
                start = i + 1;
            }
        }
        line.write(bytes, start, offset + length - start);
    }

    private void completeLine() {
        byte[] l = line.toByteArray();
        line.reset();
        if (l.length > 5 && l[0] == 'd' && l[1] == 'a' && l[2] == 't' && l[3] == 'a' && l[4] == ':') {
            Usage found = UsageExtractor.fromJson(l, 5, l.length - 5);
            if (found != Usage.NONE) {
                usage = usage.merge(found);
                long cost = UsageCost.micros(l, 5, l.length - 5); // S-7: streamed usage feeds the EMA too
                costMicros = cost >= 0 ? cost : costMicros;
            }
        }
    }
}
