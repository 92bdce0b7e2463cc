package dev.detour.bridge;

import static dev.detour.bridge.StreamBridgeFixtureTest.translate;
import static dev.detour.core.account.EndpointFamily.CHAT_COMPLETIONS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.bridge.ClientStreamParse.Answer;
import dev.detour.bridge.ClientStreamParse.Call;
import dev.detour.core.account.EndpointFamily;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * B-2: a Chat upstream's parallel tool calls in the shapes OpenAI-compatible backends really send — pieces of two
 * calls interleaved, every call at index 0 with its own id, no index at all — reach a Messages or Responses client
 * as whole calls, each with its own id, name and complete arguments, never as a call with another's pieces
 * appended or with pieces missing. The client streams are parsed as strictly as the SDKs read them (a delta
 * only inside its open block, blocks in order, one terminal). Each case is also read in 5-byte reads.
 */
class ChatToolCallOrderTest {
    private static final List<Call> BOTH = List.of(new Call("call_a", "read", "{\"path\":\"a.txt\"}"),
            new Call("call_b", "grep", "{\"q\":\"x\"}"));

    static Stream<EndpointFamily> clients() {
        return Stream.of(EndpointFamily.MESSAGES, EndpointFamily.RESPONSES);
    }

    @ParameterizedTest(name = "to {0}")
    @MethodSource("clients")
    void piecesOfTwoCallsInterleavedReachTheClientAsTwoWholeCalls(EndpointFamily client) {
        String stream = chat(
                "[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"read\",\"arguments\":\"\"}}]",
                "[{\"index\":1,\"id\":\"call_b\",\"type\":\"function\",\"function\":{\"name\":\"grep\",\"arguments\":\"\"}}]",
                "[{\"index\":0,\"function\":{\"arguments\":\"{\\\"path\\\":\"}}]",
                "[{\"index\":1,\"function\":{\"arguments\":\"{\\\"q\\\":\"}}]",
                "[{\"index\":0,\"function\":{\"arguments\":\"\\\"a.txt\\\"}\"}}]",
                "[{\"index\":1,\"function\":{\"arguments\":\"\\\"x\\\"}\"}}]");
        assertBothCalls(client, stream);
    }

    @ParameterizedTest(name = "to {0}")
    @MethodSource("clients")
    void twoCallsBothAtIndexZeroWithTheirOwnIdsStayTwoCalls(EndpointFamily client) {
        String stream = chat(
                "[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"read\",\"arguments\":\"{\\\"path\\\":\\\"a.txt\\\"}\"}},"
                        + "{\"index\":0,\"id\":\"call_b\",\"type\":\"function\",\"function\":{\"name\":\"grep\",\"arguments\":\"{\\\"q\\\":\"}}]",
                "[{\"index\":0,\"function\":{\"arguments\":\"\\\"x\\\"}\"}}]");
        assertBothCalls(client, stream);
    }

    @ParameterizedTest(name = "to {0}")
    @MethodSource("clients")
    void piecesWithoutAnIndexBelongToTheLastCallUnlessTheyBringAnotherId(EndpointFamily client) {
        String stream = chat(
                "[{\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"read\",\"arguments\":\"{\\\"path\\\":\"}}]",
                "[{\"function\":{\"arguments\":\"\\\"a.txt\\\"}\"}}]",
                "[{\"id\":\"call_b\",\"type\":\"function\",\"function\":{\"name\":\"grep\",\"arguments\":\"{\\\"q\\\":\"}}]",
                "[{\"function\":{\"arguments\":\"\\\"x\\\"}\"}}]");
        assertBothCalls(client, stream);
    }

    @ParameterizedTest(name = "to {0}")
    @MethodSource("clients")
    void callsInOpenAisOwnOrderStillArriveAsTheyCame(EndpointFamily client) {
        String stream = chat(
                "[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"read\",\"arguments\":\"\"}}]",
                "[{\"index\":0,\"function\":{\"arguments\":\"{\\\"path\\\":\"}}]",
                "[{\"index\":0,\"function\":{\"arguments\":\"\\\"a.txt\\\"}\"}}]",
                "[{\"index\":1,\"id\":\"call_b\",\"type\":\"function\",\"function\":{\"name\":\"grep\",\"arguments\":\"\"}}]",
                "[{\"index\":1,\"function\":{\"arguments\":\"{\\\"q\\\":\\\"x\\\"}\"}}]");
        assertBothCalls(client, stream);
        // the first call is streamed piece by piece (its two pieces are two client deltas), a later one whole
        String out = new String(translate(CHAT_COMPLETIONS, client, stream.getBytes(StandardCharsets.UTF_8),
                Integer.MAX_VALUE), StandardCharsets.UTF_8);
        String delta = client == EndpointFamily.MESSAGES ? "\"type\":\"input_json_delta\""
                : "\"type\":\"response.function_call_arguments.delta\"";
        assertEquals(3, out.split(delta, -1).length - 1, out);
    }

    private static void assertBothCalls(EndpointFamily client, String stream) {
        byte[] source = stream.getBytes(StandardCharsets.UTF_8);
        for (int readSize : new int[] {Integer.MAX_VALUE, 5}) {
            Answer heard = ClientStreamParse.read(client, translate(CHAT_COMPLETIONS, client, source, readSize));
            assertEquals(BOTH, heard.calls(), "reads of " + readSize);
            assertEquals("Looking.", heard.text());
            assertEquals(1, heard.terminals());
            assertEquals(0, heard.errors());
        }
    }

    /** A Chat stream: some text, then one chunk per {@code tool_calls} array given, the finish and [DONE]. */
    private static String chat(String... toolCallArrays) {
        StringBuilder out = new StringBuilder();
        out.append(chunk("{\"role\":\"assistant\",\"content\":\"Looking.\"}", "null"));
        for (String calls : toolCallArrays) {
            out.append(chunk("{\"tool_calls\":" + calls + "}", "null"));
        }
        out.append(chunk("{}", "\"tool_calls\""));
        return out.append("data: [DONE]\n\n").toString();
    }

    private static String chunk(String delta, String finishReason) {
        return "data: {\"id\":\"chatcmpl-order\",\"object\":\"chat.completion.chunk\",\"created\":1741570283,"
                + "\"model\":\"relay-model\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":"
                + finishReason + "}]}\n\n";
    }
}
