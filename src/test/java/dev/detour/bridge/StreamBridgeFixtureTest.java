package dev.detour.bridge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.detour.bridge.ClientStreamParse.Answer;
import dev.detour.bridge.ClientStreamParse.Event;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.usage.TokenUsage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * B-2: each of the six directions over a real upstream stream (written from the OpenAI and Anthropic API
 * references: text, parallel tool calls, thinking with its signature, usage with cached tokens), checked
 * three ways: the client stream equals the reviewed expected stream event by event; parsed as the client's
 * SDK would, it says what the upstream said (text, calls with ids and arguments, thinking, stop reason,
 * usage); and cut into 7-byte reads it comes out the same as from one read.
 */
class StreamBridgeFixtureTest {
    static final long CREATED = 1741570283L;
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Arguments> directions() {
        EndpointFamily[] protocols = {EndpointFamily.CHAT_COMPLETIONS, EndpointFamily.RESPONSES, EndpointFamily.MESSAGES};
        return Stream.of(protocols).flatMap(up -> Stream.of(protocols).filter(c -> c != up).map(c -> Arguments.of(up, c)));
    }

    @ParameterizedTest(name = "{0} upstream → {1} client")
    @MethodSource("directions")
    void theClientStreamIsTheReviewedExpectedStream(EndpointFamily upstream, EndpointFamily client) throws IOException {
        byte[] translated = translate(upstream, client, fixture(upstream.wire() + ".upstream.sse"), Integer.MAX_VALUE);
        String name = upstream.wire() + "-to-" + client.wire() + ".sse";
        if (Boolean.getBoolean("bridge.writeExpected")) {
            Files.write(Path.of("src/test/resources/bridge/stream", name), translated);
        }
        List<Event> expected = ClientStreamParse.events(new String(fixture(name), StandardCharsets.UTF_8));
        List<Event> actual = ClientStreamParse.events(new String(translated, StandardCharsets.UTF_8));
        assertEquals(expected.size(), actual.size(), "event count");
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i).name(), actual.get(i).name(), "event " + i);
            if (expected.get(i).data().startsWith("{")) {
                assertEquals(JSON.readTree(expected.get(i).data()), JSON.readTree(actual.get(i).data()), "event " + i);
            } else {
                assertEquals(expected.get(i).data(), actual.get(i).data(), "event " + i);
            }
        }
    }

    @ParameterizedTest(name = "{0} upstream → {1} client")
    @MethodSource("directions")
    void theClientSdkReadsWhatTheUpstreamSaid(EndpointFamily upstream, EndpointFamily client) throws IOException {
        byte[] source = fixture(upstream.wire() + ".upstream.sse");
        Answer said = ClientStreamParse.read(upstream, source);
        Answer heard = ClientStreamParse.read(client, translate(upstream, client, source, Integer.MAX_VALUE));

        assertEquals(said.text(), heard.text());
        assertEquals(said.calls(), heard.calls(), "tool calls keep their ids, names and arguments");
        assertEquals(1, heard.terminals());
        assertEquals(0, heard.errors());
        assertEquals(stopReason(upstream, said), stopReason(client, heard));
        assertEquals(comparable(upstream, client, UsageJson.read(upstream, said.usage())),
                comparable(upstream, client, UsageJson.read(client, heard.usage())));
        assertEquals(said.thinking(), heard.thinking());
        if (client != EndpointFamily.CHAT_COMPLETIONS && !said.thinking().isEmpty()) { // Chat has no place for it
            String proof = said.signatures().isEmpty() ? "none:" : upstream.wire() + ":" + said.signatures().get(0);
            assertEquals(List.of("detour-bridged:" + proof), heard.signatures().stream().map(StreamBridgeFixtureTest::sealOnly).toList(),
                    "the upstream's reasoning proof, sealed as carried by Detour");
        }
        assertTrue(heard.id().endsWith(said.id().substring(said.id().indexOf(upstream == EndpointFamily.CHAT_COMPLETIONS ? '-' : '_') + 1)),
                "the client's id is derived from the upstream's: " + heard.id());
    }

    @ParameterizedTest(name = "{0} upstream → {1} client")
    @MethodSource("directions")
    void readsOfSevenBytesTranslateLikeOneRead(EndpointFamily upstream, EndpointFamily client) throws IOException {
        byte[] source = fixture(upstream.wire() + ".upstream.sse");
        assertArrayEquals(translate(upstream, client, source, Integer.MAX_VALUE), translate(upstream, client, source, 7));
    }

    /** A Responses client's proof is {@code <item id>:<encrypted_content>}; the seal is the content. */
    static String sealOnly(String proof) {
        return proof.startsWith("rs_") ? proof.substring(proof.indexOf(':') + 1) : proof;
    }

    static byte[] translate(EndpointFamily upstream, EndpointFamily client, byte[] source, int readSize) {
        StreamBridge bridge = StreamBridge.between(upstream, client, new StreamBridge.Options(true, CREATED));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int at = 0; at < source.length; at += readSize) {
            out.writeBytes(bridge.feed(source, at, Math.min(readSize, source.length - at)));
        }
        out.writeBytes(bridge.finish());
        return out.toByteArray();
    }

    static byte[] fixture(String name) throws IOException {
        try (InputStream in = StreamBridgeFixtureTest.class.getResourceAsStream("/bridge/stream/" + name)) {
            if (in == null) {
                throw new IOException("no fixture " + name);
            }
            return in.readAllBytes();
        }
    }

    /** Responses' stop is its status plus whether it calls a tool. */
    static StopReason stopReason(EndpointFamily protocol, Answer answer) {
        return switch (protocol) {
            case CHAT_COMPLETIONS -> StopReason.fromChat(answer.stop());
            case MESSAGES -> StopReason.fromMessages(answer.stop());
            default -> StopReason.fromResponses(answer.stop(), null, !answer.calls().isEmpty());
        };
    }

    /** Messages reports no reasoning count apart (it is inside output): compare without it there. */
    private static TokenUsage comparable(EndpointFamily upstream, EndpointFamily client, TokenUsage usage) {
        boolean messages = upstream == EndpointFamily.MESSAGES || client == EndpointFamily.MESSAGES;
        return messages ? new TokenUsage(usage.input(), usage.output(), usage.cacheRead(), usage.cacheWrite5m(),
                usage.cacheWrite1h(), 0) : usage;
    }
}
