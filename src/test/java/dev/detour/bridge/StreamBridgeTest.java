package dev.detour.bridge;

import static dev.detour.bridge.StreamBridgeFixtureTest.fixture;
import static dev.detour.bridge.StreamBridgeFixtureTest.translate;
import static dev.detour.core.account.EndpointFamily.CHAT_COMPLETIONS;
import static dev.detour.core.account.EndpointFamily.MESSAGES;
import static dev.detour.core.account.EndpointFamily.RESPONSES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.bridge.ClientStreamParse.Answer;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.usage.TokenUsage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** B-2: how a bridged stream starts, ends, breaks and fails, for the gateway that writes it to the client. */
class StreamBridgeTest {
    private static final StreamBridge.Options OPTIONS = new StreamBridge.Options(true, 1741570283L);

    static Iterable<Object[]> directions() {
        return StreamBridgePropertyTest.directions();
    }

    @Test
    void aTextDeltaLeavesInTheFeedCallThatCompletesItsFrame() {
        StreamBridge bridge = StreamBridge.between(MESSAGES, CHAT_COMPLETIONS, OPTIONS);
        bridge.feed(utf8("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\","
                + "\"model\":\"claude\",\"usage\":{\"input_tokens\":3}}}\n\nevent: content_block_start\ndata: "
                + "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"));
        byte[] delta = utf8("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
                + "\"delta\":{\"type\":\"text_delta\",\"text\":\"Grüß\"}}\n\n");
        int cut = indexOf(delta, "ü") + 1; // inside the two bytes of ü

        assertEquals(0, bridge.feed(delta, 0, cut).length, "half a frame writes nothing yet");
        String written = new String(bridge.feed(delta, cut, delta.length - cut), StandardCharsets.UTF_8);

        assertTrue(written.contains("\"content\":\"Grüß\""), written);
    }

    @ParameterizedTest(name = "{0} upstream → {1} client")
    @MethodSource("directions")
    void anUpstreamRepeatingItsEndAndSendingTrailingFramesGetsOneTerminal(EndpointFamily upstream,
            EndpointFamily client) throws IOException {
        String once = new String(fixture(upstream.wire() + ".upstream.sse"), StandardCharsets.UTF_8);
        String trailing = switch (upstream) {
            case CHAT_COMPLETIONS -> "data: [DONE]\n\ndata: {\"id\":\"chatcmpl-x\",\"choices\":[{\"index\":0,"
                    + "\"delta\":{\"content\":\"late\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
            case MESSAGES -> "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\nevent: content_block_delta\n"
                    + "data: {\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":\"text_delta\",\"text\":\"late\"}}\n\n";
            default -> once.substring(once.lastIndexOf("event: response.completed"));
        };
        StreamBridge bridge = StreamBridge.between(upstream, client, OPTIONS);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(bridge.feed(utf8(once)));
        assertTrue(bridge.completed());
        out.writeBytes(bridge.feed(utf8(trailing)));
        out.writeBytes(bridge.finish());

        Answer heard = ClientStreamParse.read(client, out.toByteArray()); // fails on anything after the terminal
        assertEquals(1, heard.terminals());
        assertFalse(heard.text().contains("late"));
    }

    @ParameterizedTest(name = "{0} upstream → {1} client")
    @MethodSource("directions")
    void aStreamCutMidWayWritesNothingThatReadsAsASuccessfulEnd(EndpointFamily upstream, EndpointFamily client)
            throws IOException {
        byte[] whole = fixture(upstream.wire() + ".upstream.sse");
        byte[] cut = Arrays.copyOf(whole, whole.length * 3 / 5);
        for (boolean broken : new boolean[] {true, false}) {
            StreamBridge bridge = StreamBridge.between(upstream, client, OPTIONS);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(bridge.feed(cut));
            out.writeBytes(broken ? bridge.finishBroken() : bridge.finish()); // a body that just ended: no end seen

            Answer heard = ClientStreamParse.read(client, out.toByteArray());
            assertEquals(0, heard.terminals(), "no terminal for a cut stream");
            assertFalse(bridge.completed());
            assertFalse(bridge.endWritten(), "the gateway still ends it the broken way (F-4')");
            assertFalse(heard.text().isEmpty(), "what came before the cut was relayed as it came");
        }
    }

    @Test
    void afterFinishBrokenNothingMoreIsWrittenWhateverStillArrives() throws IOException {
        byte[] whole = fixture("messages.upstream.sse");
        StreamBridge bridge = StreamBridge.between(MESSAGES, RESPONSES, OPTIONS);
        assertTrue(bridge.feed(whole, 0, whole.length / 2).length > 0);

        assertEquals(0, bridge.finishBroken().length);
        assertEquals(0, bridge.feed(whole, whole.length / 2, whole.length - whole.length / 2).length);
        assertEquals(0, bridge.finish().length);
        assertFalse(bridge.completed());
    }

    @Test
    void anUpstreamThatSentNoUsageLeavesTheClientsUsageUnknownNotZero() throws IOException {
        byte[] source = fixture("chat_completions.refusal.upstream.sse");

        assertTrue(lastData(translate(CHAT_COMPLETIONS, RESPONSES, source, 64)).path("response").path("usage").isNull());
        StreamBridge bridge = StreamBridge.between(RESPONSES, CHAT_COMPLETIONS, OPTIONS);
        byte[] chat = bridge.feed(utf8(new String(fixture("responses.refusal.upstream.sse"), StandardCharsets.UTF_8)
                .replaceAll(",\"usage\":\\{[^}]*\\{[^}]*\\},[^}]*\\{[^}]*\\},[^}]*\\}", "")));
        assertEquals(1, ClientStreamParse.read(CHAT_COMPLETIONS, chat).terminals());
        assertNull(ClientStreamParse.read(CHAT_COMPLETIONS, chat).usage(), "no usage chunk with made-up zeros");
        assertFalse(bridge.usageSeen());
    }

    @Test
    void aLooseResponsesRelayWithoutContentPartsOrWithoutDeltasStillReachesTheClientWhole() {
        String created = "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_l\","
                + "\"model\":\"m\"}}\n\n";
        String completed = "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":"
                + "\"resp_l\",\"status\":\"completed\"}}\n\n";
        String deltasOnly = created + "data: {\"type\":\"response.output_text.delta\",\"delta\":\"Hel\"}\n\n"
                + "data: {\"type\":\"response.output_text.delta\",\"delta\":\"lo\"}\n\n"
                + "data: {\"type\":\"response.output_text.done\",\"text\":\"Hello\"}\n\n" + completed;
        String doneOnly = created + "data: {\"type\":\"response.output_item.added\",\"item\":{\"type\":\"message\"}}\n\n"
                + "data: {\"type\":\"response.output_text.done\",\"text\":\"Hello\"}\n\n"
                + "data: {\"type\":\"response.output_item.added\",\"item\":{\"type\":\"function_call\",\"call_id\":"
                + "\"call_1\",\"name\":\"f\"}}\n\n"
                + "data: {\"type\":\"response.function_call_arguments.done\",\"arguments\":\"{}\"}\n\n" + completed;

        for (String stream : new String[] {deltasOnly, doneOnly}) {
            StreamBridge bridge = StreamBridge.between(RESPONSES, MESSAGES, OPTIONS);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(bridge.feed(utf8(stream)));
            out.writeBytes(bridge.finish());
            Answer heard = ClientStreamParse.read(MESSAGES, out.toByteArray());
            assertEquals("Hello", heard.text(), stream);
            assertEquals(1, heard.terminals());
        }
        Answer calls = ClientStreamParse.read(MESSAGES, translate(RESPONSES, MESSAGES, utf8(doneOnly), 3));
        assertEquals(List.of(new ClientStreamParse.Call("call_1", "f", "{}")), calls.calls());
    }

    @Test
    void aChatUpstreamWhoseBodyEndsAfterItsFinishReasonWithoutDoneStillEndsCleanly() throws IOException {
        String stream = new String(fixture("chat_completions.upstream.sse"), StandardCharsets.UTF_8).replace("data: [DONE]\n\n", "");
        StreamBridge bridge = StreamBridge.between(CHAT_COMPLETIONS, MESSAGES, OPTIONS);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(bridge.feed(utf8(stream)));
        assertFalse(bridge.completed(), "usage may still come before [DONE]");
        out.writeBytes(bridge.finish());

        assertTrue(bridge.completed());
        assertEquals(1, ClientStreamParse.read(MESSAGES, out.toByteArray()).terminals());
    }

    @ParameterizedTest(name = "{0} upstream → {1} client")
    @MethodSource("directions")
    void anUpstreamErrorEventBecomesTheClientProtocolsErrorEventAndNothingFollows(EndpointFamily upstream,
            EndpointFamily client) throws IOException {
        StreamBridge bridge = StreamBridge.between(upstream, client, OPTIONS);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(bridge.feed(fixture(upstream.wire() + ".error.upstream.sse")));
        out.writeBytes(bridge.finish());

        Answer heard = ClientStreamParse.read(client, out.toByteArray());
        assertEquals(1, heard.errors());
        assertEquals(0, heard.terminals());
        assertEquals("Partial answ", heard.text());
        assertTrue(bridge.upstreamFailed());
        assertTrue(bridge.endWritten(), "the gateway must not add its own failure frame after this one");
        assertFalse(bridge.completed());
        JsonNode error = lastData(out.toByteArray());
        switch (client) {
            case MESSAGES -> assertEquals(upstream == CHAT_COMPLETIONS || upstream == RESPONSES ? "api_error" : "overloaded_error",
                    error.path("error").path("type").asText());
            case RESPONSES -> assertEquals("failed", error.path("response").path("status").asText());
            default -> assertFalse(error.path("error").path("message").asText().isEmpty());
        }
    }

    @ParameterizedTest(name = "{0} upstream → Messages and Chat clients")
    @MethodSource("refusingUpstreams")
    void aRefusalReachesTheClientAsItsProtocolSaysIt(EndpointFamily upstream) throws IOException {
        byte[] source = fixture(upstream.wire() + ".refusal.upstream.sse");
        String refusal = "I'm sorry, I can't assist with that request.";

        Answer messages = ClientStreamParse.read(MESSAGES, translate(upstream, MESSAGES, source, 11));
        assertEquals(refusal, messages.text());
        assertEquals("refusal", messages.stop());

        EndpointFamily other = upstream == CHAT_COMPLETIONS ? RESPONSES : CHAT_COMPLETIONS;
        Answer answer = ClientStreamParse.read(other, translate(upstream, other, source, 11));
        assertEquals(refusal, answer.refusal());
        assertEquals("", answer.text());
    }

    static EndpointFamily[] refusingUpstreams() {
        return new EndpointFamily[] {CHAT_COMPLETIONS, RESPONSES};
    }

    @Test
    void chatReasoningBecomesAThinkingBlockMarkedAsDetoursSoItIsNeverPassedOffAsAnthropicSigned()
            throws IOException {
        byte[] source = fixture("chat_completions.reasoning.upstream.sse");

        Answer messages = ClientStreamParse.read(MESSAGES, translate(CHAT_COMPLETIONS, MESSAGES, source, 5));
        assertEquals("9.11 vs 9.9: compare tenths, 1 < 9.", messages.thinking());
        assertEquals("9.9 is greater.", messages.text());
        assertEquals("max_tokens", messages.stop());
        assertEquals(List.of("detour-bridged:none:"), messages.signatures(), "Chat gives no proof: none is made up");

        Answer responses = ClientStreamParse.read(RESPONSES, translate(CHAT_COMPLETIONS, RESPONSES, source, 5));
        assertEquals(messages.thinking(), responses.thinking());
        assertEquals("incomplete", responses.stop());
        assertEquals("detour-bridged:none:", StreamBridgeFixtureTest.sealOnly(responses.signatures().get(0)));
        assertEquals(30, responses.usage().path("output_tokens_details").path("reasoning_tokens").asInt());
    }

    @Test
    void aRedactedThinkingBlockReachesAResponsesClientSealedAndAChatClientNotAtAll() throws IOException {
        String stream = new String(fixture("messages.max_tokens.upstream.sse"), StandardCharsets.UTF_8).replace(
                "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,",
                "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
                        + "{\"type\":\"redacted_thinking\",\"data\":\"EmwKAhgBEgy3va3pzix/LafPsn4a\"}}\n\n"
                        + "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
                        + "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,")
                .replace("\"index\":0,\"delta\"", "\"index\":1,\"delta\"").replace("\"content_block_stop\",\"index\":0}\n\nevent: message_delta",
                        "\"content_block_stop\",\"index\":1}\n\nevent: message_delta");
        byte[] source = stream.getBytes(StandardCharsets.UTF_8);

        Answer responses = ClientStreamParse.read(RESPONSES, translate(MESSAGES, RESPONSES, source, 13));
        assertEquals(List.of("detour-bridged:messages_redacted:EmwKAhgBEgy3va3pzix/LafPsn4a"),
                responses.signatures().stream().map(StreamBridgeFixtureTest::sealOnly).toList());
        assertEquals("Once upon a time", responses.text());

        Answer chat = ClientStreamParse.read(CHAT_COMPLETIONS, translate(MESSAGES, CHAT_COMPLETIONS, source, 13));
        assertEquals("", chat.thinking());
        assertEquals("Once upon a time", chat.text());
    }

    @Test
    void aMessagesAnswerCutByMaxTokensIsAnIncompleteResponseAndALengthFinish() throws IOException {
        byte[] source = fixture("messages.max_tokens.upstream.sse");

        String responses = new String(translate(MESSAGES, RESPONSES, source, 9), StandardCharsets.UTF_8);
        JsonNode last = lastData(utf8(responses));
        assertEquals("response.incomplete", last.path("type").asText());
        assertEquals("max_output_tokens", last.path("response").path("incomplete_details").path("reason").asText());
        assertEquals(112, last.path("response").path("usage").path("input_tokens").asInt(), "input + 1 h cache write");

        assertEquals("length", ClientStreamParse.read(CHAT_COMPLETIONS, translate(MESSAGES, CHAT_COMPLETIONS, source, 9)).stop());
    }

    @Test
    void aChatClientThatDidNotAskForUsageGetsNoUsageChunkButTheGatewayStillCountsIt() throws IOException {
        StreamBridge bridge = StreamBridge.between(MESSAGES, CHAT_COMPLETIONS, new StreamBridge.Options(false, 0));
        byte[] out = bridge.feed(fixture("messages.upstream.sse"));

        Answer heard = ClientStreamParse.read(CHAT_COMPLETIONS, out);
        assertNull(heard.usage());
        assertEquals(1, heard.terminals());
        assertTrue(bridge.usageSeen());
        assertEquals(new TokenUsage(472, 89, 2048, 0, 0, 0), bridge.usage());
    }

    @Test
    void theResponsesIdForTheGatewaysBrokenStreamFrameIsTheOneTheClientSaw() throws IOException {
        StreamBridge bridge = StreamBridge.between(CHAT_COMPLETIONS, RESPONSES, OPTIONS);
        assertNull(bridge.responseId(), "no id before the stream started: none is made up");
        bridge.feed(fixture("chat_completions.upstream.sse"));
        assertEquals("resp_B9MHDbslfkBeAs8l4bebGdFOJ6PeG", bridge.responseId());
        assertNull(StreamBridge.between(CHAT_COMPLETIONS, MESSAGES, OPTIONS).responseId());
    }

    @Test
    void aFrameThatIsNotJsonIsSkippedAndCountedNeverRelayedRaw() {
        StreamBridge bridge = StreamBridge.between(CHAT_COMPLETIONS, MESSAGES, OPTIONS);
        byte[] out = bridge.feed(utf8(": keep-alive\n\ndata: <html>502 Bad Gateway</html>\n\n"));

        assertEquals(0, out.length);
        assertEquals(1, bridge.unreadableFrames());
    }

    @Test
    void aStreamInItsOwnProtocolIsRelayedNotBridged() {
        assertThrows(IllegalArgumentException.class, () -> StreamBridge.between(MESSAGES, MESSAGES, OPTIONS));
        assertThrows(IllegalArgumentException.class,
                () -> StreamBridge.between(EndpointFamily.EMBEDDINGS, MESSAGES, OPTIONS));
    }

    private static JsonNode lastData(byte[] stream) throws IOException {
        var events = ClientStreamParse.events(new String(stream, StandardCharsets.UTF_8));
        return StreamWriter.JSON.readTree(events.get(events.size() - 1).data());
    }

    private static int indexOf(byte[] bytes, String what) {
        return new String(bytes, StandardCharsets.ISO_8859_1).indexOf(new String(utf8(what), StandardCharsets.ISO_8859_1));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
