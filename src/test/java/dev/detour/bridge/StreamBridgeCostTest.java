package dev.detour.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.core.account.EndpointFamily;
import dev.detour.core.failure.StreamTerminalScanner;
import java.io.IOException;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * B-7 groundwork, measured not asserted (machines are noisy): what one upstream frame costs to translate,
 * beside what the native relay's terminal scan of the same bytes costs. The numbers go to the note; the
 * test asserts only that every measured stream came out whole (one terminal each).
 */
class StreamBridgeCostTest {
    private static final int WARM_UP = 500;
    private static final int MEASURED = 500;

    @Test
    void translationCostPerFrameIsMeasuredOnStreamsThatComeOutWhole() throws IOException {
        StringBuilder report = new StringBuilder("bridge stream cost per upstream frame (µs):");
        for (Object[] direction : StreamBridgePropertyTest.directions()) {
            EndpointFamily upstream = (EndpointFamily) direction[0];
            EndpointFamily client = (EndpointFamily) direction[1];
            byte[] source = StreamBridgeFixtureTest.fixture(upstream.wire() + ".upstream.sse");
            int frames = ClientStreamParse.events(new String(source, java.nio.charset.StandardCharsets.UTF_8)).size();
            int whole = 0;
            for (int i = 0; i < WARM_UP; i++) {
                whole += translateOnce(upstream, client, source);
            }
            long start = System.nanoTime();
            for (int i = 0; i < MEASURED; i++) {
                whole += translateOnce(upstream, client, source);
            }
            double bridged = (System.nanoTime() - start) / 1000.0 / MEASURED / frames;
            start = System.nanoTime();
            for (int i = 0; i < MEASURED; i++) {
                new StreamTerminalScanner().feed(source, 0, source.length);
            }
            double scanned = (System.nanoTime() - start) / 1000.0 / MEASURED / frames;
            report.append(String.format(Locale.ROOT, "%n  %s → %s: %.2f (native scan %.2f), %d frames of %d bytes",
                    upstream.wire(), client.wire(), bridged, scanned, frames, source.length));
            assertEquals(WARM_UP + MEASURED, whole, "every translated stream ended once");
        }
        System.out.println(report);
    }

    private static int translateOnce(EndpointFamily upstream, EndpointFamily client, byte[] source) {
        StreamBridge bridge = StreamBridge.between(upstream, client, new StreamBridge.Options(true, 0));
        for (int at = 0; at < source.length; at += 512) {
            bridge.feed(source, at, Math.min(512, source.length - at));
        }
        bridge.finish();
        return bridge.completed() ? 1 : 0;
    }
}
