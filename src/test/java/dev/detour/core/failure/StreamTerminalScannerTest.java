package dev.detour.core.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** F-4 / P-6: terminal markers and truncation, chunk by chunk. */
class StreamTerminalScannerTest {
    static final String DELTA = "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n";

    static StreamTerminalScanner scan(String... chunks) {
        StreamTerminalScanner scanner = new StreamTerminalScanner();
        for (String c : chunks) {
            scanner.feed(c);
        }
        return scanner;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "event: response.completed\ndata: {\"type\":\"response.completed\"}\n\n",
            "data: [DONE]\n\n", "data:[DONE]\n\n",
            "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
            "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
            "data: {\"choices\":[{\"delta\":{},\"finish_reason\": \"length\"}]}\n\n",
            "data: {\"choices\":[{\"finish_reason\" :  \"tool_calls\"}]}\n\n",
            "data: {\"choices\":[{\"finish_reason\":\"content_filter\"}]}\n\n",
            "data: {\"candidates\":[{\"finishReason\": \"STOP\"}]}\n\n"})
    void eachTerminalMarkerEndsTheStreamProperly(String terminal) {
        StreamTerminalScanner scanner = scan(DELTA, terminal);
        assertTrue(scanner.sawTerminal(), terminal);
        assertFalse(scanner.truncated());
    }

    @Test
    void dataFramesWithoutAnyMarkerAreTruncated() {
        StreamTerminalScanner scanner = scan(DELTA, DELTA, ": keep-alive\n\n");
        assertTrue(scanner.sawDataFrame());
        assertTrue(scanner.truncated());
    }

    @Test
    void aMarkerSplitAcrossChunksStillCounts() {
        String all = DELTA + "data: {\"choices\":[{\"delta\":{},\"finish_reason\": \"stop\"}]}\n\n";
        for (int cut = 1; cut < all.length(); cut++) {
            StreamTerminalScanner scanner = scan(all.substring(0, cut), all.substring(cut));
            assertFalse(scanner.truncated(), "cut at " + cut);
        }
        StreamTerminalScanner oneByOne = new StreamTerminalScanner();
        for (char c : ("data: {\"x\":1}\n\ndata: [DO" + "NE]\n\n").toCharArray()) {
            oneByOne.feed(String.valueOf(c));
        }
        assertTrue(oneByOne.sawTerminal());
    }

    @Test
    void byteChunksReachTheSameVerdictAsText() {
        byte[] bytes = ("data: {\"content\":\"你好\"}\n\nevent: response.com").getBytes(StandardCharsets.UTF_8);
        byte[] rest = "pleted\ndata: {}\n\n".getBytes(StandardCharsets.UTF_8);
        StreamTerminalScanner scanner = new StreamTerminalScanner();
        scanner.feed(bytes, 0, bytes.length);
        assertTrue(scanner.truncated());
        scanner.feed(rest, 0, rest.length);
        assertFalse(scanner.truncated());
    }

    @Test
    void aMarkerFarIntoALongStreamIsFoundAtEveryOffsetAndBlanksInsideOneBreakIt() {
        String filler = DELTA.repeat(40);
        for (int shift = 0; shift < 40; shift++) {
            // F-4': markers are read from whole SSE lines, so the shift is a comment line of its own
            String head = filler + ": " + "x".repeat(shift) + "\n";
            assertFalse(scan(head, "data: {\"finish_reason\"\t : \t\"stop\"}\n\n").truncated(), "shift " + shift);
            assertTrue(scan(head, "data: {\"finish_reason\":\"st op\"}\n\n").truncated(), "shift " + shift);
            assertTrue(scan(head, "data: [DO NE]\n\n").truncated(), "shift " + shift);
        }
        assertTrue(scan(DELTA, "data: {\"finish_reason\" x:\"stop\"}\n\n").truncated(), "a char between key and colon");
    }

    @Test
    void aStreamWithNoDataFrameIsNotTruncatedOnlyEmpty() {
        assertFalse(scan(": keep-alive\n\n", "data:\n\n", "data:   \n\n", "event: ping\n\n").truncated());
        assertFalse(scan("").sawDataFrame());
    }

    @Test
    void aFinalDataLineWithoutNewlineCounts() {
        assertTrue(scan("data: {\"partial\":").truncated());
    }

    @Test
    void contentMentioningStopWithoutTheExactMarkerDoesNotEndTheStream() {
        assertTrue(scan("data: {\"content\":\"please stop\",\"finish_reason\":null}\n\n").truncated());
    }

    /** F-4': a marker's text inside generated content (or anywhere no JSON key may stand) never ends a stream. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "data: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"message_stop\"}}\n\n",
            "data: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"event: message_stop\"}}\n\n",
            "data: {\"choices\":[{\"delta\":{\"content\":\"data: [DONE]\"}}]}\n\n",
            "data: {\"choices\":[{\"delta\":{\"content\":\"[DONE]\"}}]}\n\n",
            "data: {\"choices\":[{\"delta\":{\"content\":\"\\\"finish_reason\\\":\\\"stop\\\"\"}}]}\n\n",
            "data: {\"choices\":[{\"delta\":{\"content\":\"{\\\"finish_reason\\\": \\\"length\\\"}\"}}]}\n\n",
            "data: {\"type\":\"response.output_text.delta\",\"delta\":\"response.completed\"}\n\n",
            "data: {\"type\":\"response.output_text.delta\",\"delta\":\"\\\"type\\\":\\\"response.completed\\\"\"}\n\n",
            "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"finishReason: STOP\"}]}}]}\n\n",
            "data: {\"item\":{\"type\":\"message_stop\"}}\n\n",
            "data: {\"note\":[\"finish_reason\",\"stop\"]}\n\n",
            "data: {\"finish_reason\":null,\"text\":\"stop\"}\n\n",
            "data: {\"text\":\"a\"} message_stop [DONE]\n\n",
            ": message_stop\n\n",
            "id: response.completed\n\n",
            "data: x [DONE]\n\n"})
    void aMarkerInsideContentDoesNotEndTheStream(String frame) {
        StreamTerminalScanner scanner = scan(DELTA, frame);
        assertFalse(scanner.sawTerminal(), frame);
        assertTrue(scanner.truncated(), frame);
        StreamTerminalScanner byteByByte = new StreamTerminalScanner();
        byte[] bytes = (DELTA + frame).getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            byteByByte.feed(bytes, i, 1);
        }
        assertTrue(byteByByte.truncated(), "byte by byte: " + frame);
    }

    /** F-4': the same markers, where the protocol puts them, still end the stream (split anywhere). */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "event: message_stop\ndata: {}\n\n",
            "event: content_block_delta\ndata: {\"type\":\"message_stop\"}\n\n",
            "data: {\"type\" : \"response.completed\",\"response\":{\"status\":\"completed\"}}\r\n\r\n",
            "data: {\"type\":\"response.incomplete\",\"response\":{\"status\":\"incomplete\"}}\n\n",
            "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\\\"b\"},\"finish_reason\":\"stop\"}]}\n\n",
            "data: {\"choices\":[{\"delta\":{\"content\":\"[1,{\\\"x\\\":2}]\"},\"finish_reason\":\"tool_calls\"}]}\n\n",
            "data:  [DONE] \n\n"})
    void aMarkerWhereTheProtocolPutsItEndsTheStreamHoweverSplit(String frame) {
        String all = DELTA + frame;
        for (int cut = 1; cut < all.length(); cut++) {
            assertFalse(scan(all.substring(0, cut), all.substring(cut)).truncated(), "cut at " + cut + ": " + frame);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"x\"}}\n\n",
            "data: {\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"x\"}}\n\n",
            "event: response.failed\ndata: {\"response\":{\"status\":\"failed\"}}\n\n",
            "data: {\"type\":\"response.failed\",\"response\":{\"status\":\"failed\"}}\n\n",
            "data: {\"error\":{\"message\":\"upstream broke\",\"code\":\"server_error\"}}\n\n"})
    void anInBandErrorEventIsAFailureAndNoEnd(String frame) {
        StreamTerminalScanner scanner = scan(DELTA, frame);
        assertTrue(scanner.sawFailureEvent(), frame);
        assertEquals(1, scanner.failureLines(), "exactly its data line is error text: " + frame);
        assertTrue(scanner.truncated(), frame);
    }

    @Test
    void aByteOrderMarkBeforeTheFirstLineIsNoPartOfItsField() {
        assertTrue(scan("\uFEFF" + DELTA).truncated(), "as a char");
        byte[] bom = ("\uFEFF" + DELTA).getBytes(StandardCharsets.UTF_8);
        StreamTerminalScanner bytes = new StreamTerminalScanner();
        bytes.feed(bom, 0, bom.length);
        assertTrue(bytes.truncated(), "as three bytes");
        assertFalse(scan("\uFEFFdata: [DONE]\n\n").truncated());
    }

    @Test
    void contentMentioningErrorIsNoFailureEvent() {
        StreamTerminalScanner scanner = scan("data: {\"type\":\"content_block_delta\",\"delta\":{\"type\":\"error\","
                + "\"text\":\"event: error\"},\"error\":\"just a string\"}\n\n", "event: ping\ndata: {}\n\n");
        assertFalse(scanner.sawFailureEvent());
        assertEquals(0, scanner.failureLines());
    }

    @Test
    void theTruncationMessageIsExact() {
        assertEquals("stream disconnected before completion: stream closed before response.completed",
                Failure.TRUNCATED_STREAM_MESSAGE);
    }

    @Test
    void firstFrameHelpersTellWhenTheFirstFrameIsWholeAndWhatItSays() {
        assertFalse(SseFrames.firstDataFrameComplete(": ping\n\ndata: {\"error\":{\"mess"));
        assertTrue(SseFrames.firstDataFrameComplete(": ping\n\ndata: {\"error\":{\"message\":\"x\"}}\n\n"));
        assertEquals("{\"a\":1}\n{\"b\":2}", SseFrames.firstDataFrame("data: {\"a\":1}\ndata: {\"b\":2}\n\n"));
        assertEquals(null, SseFrames.firstDataFrame(": only comments\r\n\r\ndata: [DONE]\r\n\r\n"));
    }
}
