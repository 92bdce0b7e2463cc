package dev.detour.gateway.wire;

import dev.detour.bridge.StreamBridge;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.failure.StreamTerminalScanner;
import dev.detour.core.secret.SecretMask;
import dev.detour.gateway.port.ResponseSink;
import dev.detour.gateway.port.UpstreamResponse;

/**
 * B-3: {@link StreamRelay}'s job for an upstream of another protocol than the client's. Every upstream read
 * feeds the terminal scanner and the usage reader in the UPSTREAM's protocol (whether the stream completed,
 * broke or carried an error event is judged as for a native one, F-4'), and the bridge's output for that read
 * — whole events in the client's protocol — is written and flushed at once (no buffering: TTFT stays the
 * upstream's). A clean end writes the bridge's terminal events; a broken one writes none (the gateway ends
 * the stream the broken way unless {@link StreamBridge#endWritten} says the client already got its end).
 */
public final class BridgedStreamRelay {
    private final StreamTerminalScanner scanner = new StreamTerminalScanner();
    private final SecretMask mask;
    private final UsageLines usage;
    private final StreamBridge bridge;
    private long written;

    public BridgedStreamRelay(SecretMask mask, EndpointFamily upstream, StreamBridge bridge) {
        this.mask = mask;
        this.usage = new UsageLines(upstream);
        this.bridge = bridge;
    }

    public StreamRelay.Result relay(UpstreamResponse response, byte[] head, ResponseSink sink) {
        return StreamRelay.relay(response, head, sink, (buffer, n) -> pass(buffer, n, sink), () -> {
            boolean broken = scanner.truncated() || scanner.sawFailureEvent();
            write(broken ? bridge.finishBroken() : bridge.finish(), false, sink);
            sink.flush();
        }, this::result);
    }

    private StreamRelay.Result result(boolean clientGone, long firstWrite) {
        return new StreamRelay.Result(!clientGone && scanner.truncated(), clientGone, usage.usage(), usage.usageSeen(),
                firstWrite, written, usage.costMicros(), scanner.sawFailureEvent() || bridge.upstreamFailed());
    }

    /** @return true when something was written */
    private boolean pass(byte[] bytes, int length, ResponseSink sink) throws ResponseSink.ClientGoneException {
        int failuresBefore = scanner.failureLines();
        boolean failedBefore = bridge.upstreamFailed();
        scanner.feed(bytes, 0, length);
        usage.feed(bytes, 0, length);
        byte[] out = bridge.feed(bytes, 0, length);
        // a translated upstream error event carries the upstream's message: masked like every relayed error
        boolean failureHere = scanner.failureLines() != failuresBefore || bridge.upstreamFailed() != failedBefore;
        return write(out, failureHere, sink);
    }

    private boolean write(byte[] out, boolean masked, ResponseSink sink) throws ResponseSink.ClientGoneException {
        if (out.length == 0) {
            return false;
        }
        byte[] bytes = masked ? mask.apply(out) : out;
        sink.write(bytes, 0, bytes.length);
        written += bytes.length;
        return true;
    }
}
