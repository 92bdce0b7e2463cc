package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.Reply;
import dev.detour.testkit.OneUpstreamCase;
import dev.detour.testkit.Rows;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * B-4 through the real App and fake upstream: each protocol's golden answer (src/test/resources/usage/),
 * buffered and streamed, leaves an event whose normalised usage, protocols and per-class cost are the
 * same in MariaDB and in the admin API.
 */
class UsageNormalisedIT extends OneUpstreamCase {
    private static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"}]";
    /** Per million tokens: input 3, output 15, cache read 0.3, cache write 5 min 3.75, 1 h 6 (currency units). */
    private static final String PRICES = "{\"prices\":[{\"model\":\"upstream-sol\",\"input_micros_per_m\":3000000,"
            + "\"output_micros_per_m\":15000000,\"cache_read_micros_per_m\":300000,"
            + "\"cache_write_5m_micros_per_m\":3750000,\"cache_write_1h_micros_per_m\":6000000}]}";
    private static final String MESSAGES = "[{\"role\":\"user\",\"content\":\"hi\"}]";

    @ParameterizedTest(name = "{0}, stream {1}")
    @CsvSource(delimiter = '|', value = {
            // protocol | stream | input | output | cache read | write 5m | write 1h | reasoning | cost micros
            // 86×3 + 300×15 + 1920×0.3 = 258 + 4,500 + 576
            "chat_completions | false | 86 | 300 | 1920 | 0 | 0 | 192 | 5334",
            "chat_completions | true | 86 | 300 | 1920 | 0 | 0 | 192 | 5334",
            // 512×3 + 700×15 + 1024×0.3 = 1,536 + 10,500 + 307.2 (micros are whole: rounded down)
            "responses | false | 512 | 700 | 1024 | 0 | 0 | 512 | 12343",
            "responses | true | 512 | 700 | 1024 | 0 | 0 | 512 | 12343",
            // 12×3 + 503×15 + 1800×0.3 + 1536×3.75 + 512×6 = 36 + 7,545 + 540 + 5,760 + 3,072
            "messages | false | 12 | 503 | 1800 | 1536 | 512 | 0 | 16953",
            "messages | true | 12 | 503 | 1800 | 1536 | 512 | 0 | 16953",
    })
    void anAnswersEventHoldsItsNormalisedUsageProtocolsAndPerClassCost(String protocol, boolean stream, long input,
            long output, long cacheRead, long write5m, long write1h, long reasoning, long cost) throws IOException {
        String platform = protocol.equals("messages") ? "anthropic" : "openai-compatible";
        gw.account("a", upstream, MAPS, "{\"platform\":\"" + platform + "\"}");
        assertEquals(1, gw.admin("PUT", "/prices", PRICES).path("prices").size());
        String fixture = new String(UsageGoldenVectorsTest.fixture(protocol
                + (stream ? ".stream.sse" : ".buffered.json")), StandardCharsets.UTF_8);
        upstream.enqueue(stream ? Reply.rawSse(List.of(fixture)) : Reply.json(200, fixture));

        String path = switch (protocol) {
            case "chat_completions" -> "/v1/chat/completions";
            case "responses" -> "/v1/responses";
            default -> "/v1/messages";
        };
        HttpResponse<InputStream> response = gw.postStreaming(path, request(protocol, stream));
        try (InputStream body = response.body()) {
            body.readAllBytes();
        }
        assertEquals(200, response.statusCode());

        JsonNode event = gw.events(1).get(0);
        assertEquals("success", event.path("outcome").asText(), event.toString());
        JsonNode usage = event.path("usage");
        assertEquals(List.of(input, output, cacheRead, write5m + write1h, write5m, write1h, reasoning),
                List.of(usage.path("input_tokens").asLong(), usage.path("output_tokens").asLong(),
                        usage.path("cache_read_tokens").asLong(), usage.path("cache_write_tokens").asLong(),
                        usage.path("cache_write_5m_tokens").asLong(), usage.path("cache_write_1h_tokens").asLong(),
                        usage.path("reasoning_tokens").asLong()), event.toString());
        assertEquals(protocol, event.path("client_protocol").asText());
        assertEquals(protocol, event.path("upstream_protocol").asText());
        assertEquals(cost, Math.round(event.path("cost").asDouble() * 1_000_000), event.toString());

        String row = "SELECT CONCAT_WS(',', input_tokens, output_tokens, cache_read_tokens, cache_write_tokens,"
                + " cache_write_1h_tokens, reasoning_tokens, client_protocol, upstream_protocol, cost_micros)"
                + " FROM request_events WHERE request_id = '" + event.path("id").asText() + "'";
        assertEquals(String.join(",", List.of(input, output, cacheRead, write5m, write1h, reasoning).stream()
                .map(String::valueOf).toList()) + "," + protocol + "," + protocol + "," + cost,
                Rows.strings(row).get(0));
    }

    private static String request(String protocol, boolean stream) {
        String streaming = stream ? ",\"stream\":true" : "";
        return switch (protocol) {
            case "chat_completions" -> "{\"model\":\"gpt-5.6-sol\",\"messages\":" + MESSAGES + streaming
                    + (stream ? ",\"stream_options\":{\"include_usage\":true}" : "") + "}";
            case "responses" -> "{\"model\":\"gpt-5.6-sol\",\"input\":\"hi\"" + streaming + "}";
            default -> "{\"model\":\"gpt-5.6-sol\",\"max_tokens\":100,\"messages\":" + MESSAGES + streaming + "}";
        };
    }
}
