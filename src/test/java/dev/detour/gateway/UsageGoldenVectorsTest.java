package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.detour.bridge.UsageJson;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.usage.TokenUsage;
import dev.detour.gateway.wire.AnswerFacts;
import dev.detour.gateway.wire.AnswerReader;
import dev.detour.gateway.wire.UsageLines;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

/**
 * B-4 golden vectors: each protocol's usage as it comes in a buffered answer and in stream frames
 * (src/test/resources/usage/), read by the gateway's token parser and by the bridge's tree reader, with
 * the same normalised counts from both.
 */
class UsageGoldenVectorsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest(name = "{0} ({1})")
    @CsvFileSource(resources = "/usage/expected.csv", delimiter = '|')
    void theGatewayAndTheBridgeReadTheSameNormalisedUsage(String fixture, String protocolWire, long input, long output,
            long cacheRead, long cacheWrite5m, long cacheWrite1h, long reasoning) throws IOException {
        EndpointFamily protocol = EndpointFamily.fromWire(protocolWire);
        byte[] body = fixture(fixture);
        TokenUsage expected = new TokenUsage(input, output, cacheRead, cacheWrite5m, cacheWrite1h, reasoning);

        AnswerFacts gateway = fixture.endsWith(".sse") ? UsageLines.of(protocol, body)
                : AnswerReader.read(protocol, body);
        assertTrue(gateway.usageSeen(), fixture);
        assertEquals(expected, gateway.usage(), "gateway: " + fixture);
        assertEquals(expected, fixture.endsWith(".sse") ? relayed(protocol, body) : gateway.usage(),
                "relayed in reads of 7 bytes: " + fixture);
        assertEquals(expected, bridge(protocol, body, fixture.endsWith(".sse")), "bridge: " + fixture);
    }

    /** The stream as StreamRelay feeds it, in small reads that cut lines apart. */
    private static TokenUsage relayed(EndpointFamily protocol, byte[] body) {
        UsageLines lines = new UsageLines(protocol);
        for (int i = 0; i < body.length; i += 7) {
            lines.feed(body, i, Math.min(7, body.length - i));
        }
        return lines.usage();
    }

    /** UsageJson on every usage object of the answer, or of each data frame, merged as a stream's are. */
    private static TokenUsage bridge(EndpointFamily protocol, byte[] body, boolean sse) throws IOException {
        if (!sse) {
            return usageIn(protocol, JSON.readTree(body));
        }
        TokenUsage usage = TokenUsage.NONE;
        for (String line : new String(body, StandardCharsets.UTF_8).split("\n")) {
            if (line.startsWith("data: {")) {
                usage = usage.merge(usageIn(protocol, JSON.readTree(line.substring(6))));
            }
        }
        return usage;
    }

    private static TokenUsage usageIn(EndpointFamily protocol, JsonNode document) {
        TokenUsage usage = TokenUsage.NONE;
        for (JsonNode found : document.findValues("usage")) {
            usage = usage.merge(UsageJson.read(protocol, found));
        }
        return usage;
    }

    static byte[] fixture(String name) throws IOException {
        try (InputStream in = UsageGoldenVectorsTest.class.getResourceAsStream("/usage/" + name)) {
            if (in == null) {
                throw new IOException("no fixture usage/" + name);
            }
            return in.readAllBytes();
        }
    }
}
