package dev.detour.gateway;

import dev.detour.core.failure.StreamTerminalScanner;
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
    private final UsageLines usage = new UsageLines();

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
            return new Result(scanner.truncated(), false, usage.usage(), firstWrite, bytes, usage.costMicros());
        } catch (ResponseSink.ClientGoneException e) {
            response.abort();
            return new Result(false, true, usage.usage(), firstWrite, bytes, usage.costMicros());
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
        usage.feed(bytes, offset, length);
    }
}
