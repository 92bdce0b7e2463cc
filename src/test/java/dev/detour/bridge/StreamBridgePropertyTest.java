package dev.detour.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.bridge.ClientStreamParse.Answer;
import dev.detour.bridge.ClientStreamParse.Call;
import dev.detour.core.account.EndpointFamily;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * B-2 property: for random texts, thinking and tool-argument strings (multi-byte characters, emoji, quotes,
 * backslashes, line ends and SSE look-alikes such as a {@code data: [DONE]} inside the text), written as an
 * upstream stream and fed to the bridge in random reads (cutting lines, frames and UTF-8 characters), the
 * client's SDK reads the same text, thinking and tool calls (ids, names, arguments) the upstream sent, and
 * exactly one terminal event. Seeded, so a failure repeats.
 */
class StreamBridgePropertyTest {
    private static final String[] ATOMS = {"a", "Z", "7", " ", "\n", "\r\n", "\t", "\"", "\\", "/", "{", "}", ":", ",",
        "ü", "é", "ß", "中", "文", "한", "🌦", "👍🏽", "e\u0301", "\u2028", "data: [DONE]\n\n", "event: message_stop\n",
        "\"finish_reason\":\"stop\"", "</s>", "\u0000"};
    private static final int RUNS = 60;

    static List<Object[]> directions() {
        return StreamBridgeFixtureTest.directions().map(a -> a.get()).toList();
    }

    @ParameterizedTest(name = "{0} upstream → {1} client")
    @MethodSource("directions")
    void theClientReadsTheUpstreamsTextThinkingAndToolCallsWhateverTheReads(EndpointFamily upstream,
            EndpointFamily client) {
        for (int run = 0; run < RUNS; run++) {
            long seed = 31L * run + upstream.ordinal() * 7 + client.ordinal();
            Random random = new Random(seed);
            String thinking = random.nextInt(3) == 0 ? "" : text(random, 1 + random.nextInt(60));
            String text = text(random, 1 + random.nextInt(200));
            List<Call> calls = new ArrayList<>();
            for (int i = random.nextInt(4); i > 0; i--) {
                calls.add(new Call("call_" + seed + "_" + i, "tool_" + i, "{\"q\":" + quoted(text(random, random.nextInt(80))) + "}"));
            }
            byte[] source = UpstreamStreams.write(upstream, random, thinking, text, calls);
            Answer heard = ClientStreamParse.read(client, translate(upstream, client, source, random));

            String where = "seed " + seed;
            assertEquals(text, heard.text(), where);
            assertEquals(calls, heard.calls(), where);
            assertEquals(thinking, heard.thinking(), where);
            assertEquals(1, heard.terminals(), where);
            assertEquals(calls.isEmpty() ? StopReason.END : StopReason.TOOL_USE,
                    StreamBridgeFixtureTest.stopReason(client, heard), where);
        }
    }

    /** Feeds the source in reads of 1 to 40 bytes. */
    private static byte[] translate(EndpointFamily upstream, EndpointFamily client, byte[] source, Random random) {
        StreamBridge bridge = StreamBridge.between(upstream, client, new StreamBridge.Options(false, 0));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = 0;
        while (at < source.length) {
            int n = Math.min(source.length - at, 1 + random.nextInt(40));
            out.writeBytes(bridge.feed(source, at, n));
            at += n;
        }
        out.writeBytes(bridge.finish());
        return out.toByteArray();
    }

    private static String text(Random random, int atoms) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < atoms; i++) {
            text.append(ATOMS[random.nextInt(ATOMS.length)]);
        }
        return text.toString();
    }

    private static String quoted(String text) {
        return StreamWriter.JSON.getNodeFactory().textNode(text).toString();
    }
}
