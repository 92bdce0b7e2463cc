package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.fake.RecordedRequest;
import dev.detour.fake.Reply;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.OneUpstreamCase;
import dev.detour.testkit.Received;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * B-1 / B-3 through the real App and the fake upstream speaking each protocol: for each of the six
 * directions, buffered and streamed, the client is answered in its own protocol with the upstream's text and
 * tool calls (the B-2 fixtures of src/test/resources/bridge/), the upstream is asked at its own path with its
 * own auth, and the event names both protocols, the normalised usage and the bridged attempt.
 */
class BridgedRequestsIT extends OneUpstreamCase {

    @ParameterizedTest(name = "{0} client, {1} upstream, stream {2}")
    @CsvSource({
            "chat, messages, false", "chat, messages, true",
            "chat, responses, false", "chat, responses, true",
            "messages, chat, false", "messages, chat, true",
            "messages, responses, false", "messages, responses, true",
            "responses, chat, false", "responses, chat, true",
            "responses, messages, false", "responses, messages, true"})
    void aBridgedRequestIsAnsweredInTheClientsProtocolFromTheUpstreamsAnswer(String client, String upstreamName,
            boolean stream) throws Exception {
        String direction = client + "-to-" + upstreamName;
        ObjectNode request = (ObjectNode) Gateway.read(fixture("bridge/" + direction + "/request.json"));
        request.put("stream", stream);
        if (stream && client.equals("chat")) {
            request.putObject("stream_options").put("include_usage", true);
        }
        String model = request.path("model").asText();
        gw.account("only", upstream, "[{\"from\":\"" + model + "\",\"to\":\"" + model + "\"}]",
                BridgeCases.accountSpeaking(upstreamName));
        upstream.enqueue(stream
                ? Reply.rawSse(List.of(fixture("bridge/stream/" + wire(upstreamName) + ".upstream.sse")))
                : Reply.json(200, fixture("bridge/" + direction + "/upstream-answer.json")));

        Received received = gw.postReceiving(BridgeCases.path(client), request.toString());

        assertEquals(200, received.statusCode(), received.text());
        if (stream) {
            assertEquals(BridgeCases.events(fixture("bridge/stream/" + wire(upstreamName) + "-to-" + wire(client)
                    + ".sse")), BridgeCases.events(received.text()), received.text());
        } else {
            assertEquals(withoutTimes(Gateway.read(fixture("bridge/" + direction + "/answer.json"))),
                    withoutTimes(Gateway.read(received.text())));
        }
        RecordedRequest asked = upstream.lastRequest();
        assertEquals(BridgeCases.path(upstreamName), asked.path(), "the upstream is asked at its own path");
        BridgeCases.assertAuthOf(upstreamName, asked);
        JsonNode event = gw.events(1).get(0);
        assertEquals("success", event.path("outcome").asText(), event.toString());
        assertEquals(wire(client), event.path("client_protocol").asText());
        assertEquals(wire(upstreamName), event.path("upstream_protocol").asText());
        assertTrue(event.path("usage").path("output_tokens").asLong() > 0, "normalised usage: " + event);
        JsonNode attempt = event.path("attempts").get(0);
        assertEquals(wire(client), attempt.path("bridged_from").asText(), event.toString());
        assertEquals(wire(upstreamName), attempt.path("bridged_to").asText(), event.toString());
    }

    static String wire(String name) {
        return name.equals("chat") ? "chat_completions" : name;
    }

    static String fixture(String name) throws IOException {
        try (InputStream in = BridgedRequestsIT.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("no fixture " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The answer's time is the gateway's clock, not the fixture's. */
    static JsonNode withoutTimes(JsonNode node) {
        if (node instanceof ObjectNode object) {
            object.remove(List.of("created", "created_at", "completed_at"));
            object.forEach(BridgedRequestsIT::withoutTimes);
        } else if (node.isArray()) {
            node.forEach(BridgedRequestsIT::withoutTimes);
        }
        return node;
    }

    /** What the bridged-request ITs share: paths, accounts per protocol, auth checks, stream events. */
    static final class BridgeCases {
        private BridgeCases() {
        }

        static String path(String protocol) {
            return switch (protocol) {
                case "chat", "chat_completions" -> "/v1/chat/completions";
                case "responses" -> "/v1/responses";
                default -> "/v1/messages";
            };
        }

        /** An account that speaks only {@code protocol} (a default relay speaks Chat and Responses). */
        static String accountSpeaking(String protocol) {
            return switch (protocol) {
                case "messages" -> "{\"platform\":\"anthropic\"}";
                case "responses" -> "{\"protocols\":[\"responses\"]}";
                default -> "{\"protocols\":[\"chat_completions\"]}";
            };
        }

        static void assertAuthOf(String upstreamProtocol, RecordedRequest asked) {
            if (upstreamProtocol.equals("messages")) {
                assertTrue(asked.headers().get("x-api-key").startsWith("sk-test-"), asked.headers().toString());
                assertEquals("2023-06-01", asked.headers().get("anthropic-version"));
                assertFalse(asked.headers().containsKey("authorization"), asked.headers().toString());
            } else {
                assertTrue(asked.headers().get("authorization").startsWith("Bearer sk-test-"),
                        asked.headers().toString());
                assertFalse(asked.headers().containsKey("anthropic-version"), asked.headers().toString());
            }
        }

        /** Each SSE event as "name|data", the data as JSON without its times when it is JSON. */
        static List<String> events(String sse) {
            List<String> out = new ArrayList<>();
            for (String block : sse.replace("\r\n", "\n").split("\n\n")) {
                String name = "";
                StringBuilder data = new StringBuilder();
                for (String line : block.split("\n")) {
                    if (line.startsWith("event:")) {
                        name = line.substring(6).trim();
                    } else if (line.startsWith("data:")) {
                        data.append(line.substring(5).trim());
                    }
                }
                if (data.length() == 0) {
                    continue;
                }
                String text = data.toString();
                out.add(name + "|" + (text.startsWith("{") ? withoutTimes(Gateway.read(text)).toString() : text));
            }
            return out;
        }

        static long count(List<String> events, String prefix) {
            return events.stream().filter(e -> e.startsWith(prefix)).count();
        }

    }
}
