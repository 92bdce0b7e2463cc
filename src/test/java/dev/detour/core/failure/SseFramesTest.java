package dev.detour.core.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SseFramesTest {

    /** stream text, filter, first accepted data (null = none complete). */
    static Stream<Arguments> streams() {
        return Stream.of(
                Arguments.of("data: {\"a\":1}\n\n", "non-blank", "{\"a\":1}"),
                Arguments.of("data:{\"a\":1}\r\n\r\n", "non-blank", "{\"a\":1}"),
                Arguments.of("data: {\"a\":1}\r\rdata: x\r\r", "non-blank", "{\"a\":1}"),
                Arguments.of(": ping\n\n: keep-alive\n\ndata: first\n\n", "non-blank", "first"),
                Arguments.of("event: message\nid: 7\nretry: 10\ndata: a\ndata: b\n\n", "non-blank", "a\nb"),
                Arguments.of("data: \n\ndata:    \n\ndata: x\n\n", "non-blank", "x"),
                Arguments.of("data: [DONE]\n\n", "non-blank", "[DONE]"),
                Arguments.of("data: [DONE]\n\ndata: later\n\n", "meaningful", "later"),
                Arguments.of("data: [DONE]\n\n", "meaningful", null),
                Arguments.of("\uFEFFdata: bom\n\n", "non-blank", "bom"),
                Arguments.of("data: héllo → 世界\n\n", "non-blank", "héllo → 世界"),
                Arguments.of("data:  two spaces\n\n", "non-blank", " two spaces"),
                Arguments.of("data: not ended yet\n", "non-blank", null),
                Arguments.of("{\"error\":{\"message\":\"x\"}}", "non-blank", null));
    }

    @ParameterizedTest(name = "{0} → {2}")
    @MethodSource("streams")
    void theFirstAcceptedEventIsFoundHoweverTheBytesAreSplit(String stream, String filter, String expected) {
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        Predicate<String> wanted = filter.equals("meaningful") ? SseFrames.MEANINGFUL : SseFrames.NON_BLANK;
        assertEquals(expected, new SseFrames(wanted).feed(bytes, 0, bytes.length), "one read");
        for (int cut = 1; cut < bytes.length; cut++) {
            SseFrames frames = new SseFrames(wanted);
            String first = frames.feed(bytes, 0, cut);
            String found = first != null ? first : frames.feed(bytes, cut, bytes.length - cut);
            assertEquals(expected, found, "split at byte " + cut);
        }
        SseFrames oneByOne = new SseFrames(wanted);
        String found = null;
        for (int i = 0; i < bytes.length && found == null; i++) {
            found = oneByOne.feed(bytes, i, 1);
        }
        assertEquals(expected, found, "byte by byte");
    }

    @Test
    void anEventCutOffAtTheEndCountsOnlyWhenTheStreamIsFinished() {
        byte[] bytes = ": c\ndata: {\"a\":1}".getBytes(StandardCharsets.UTF_8);
        SseFrames frames = new SseFrames(SseFrames.MEANINGFUL);
        assertNull(frames.feed(bytes, 0, bytes.length));
        assertEquals("{\"a\":1}", frames.finish());
        assertEquals("{\"a\":1}", SseFrames.firstDataFrame(": c\ndata: {\"a\":1}"));
    }

    @Test
    void sseLooksLikeSseAndJsonDoesNot() {
        assertTrue(SseFrames.looksLikeSse("\uFEFF  : ping\n\n"));
        assertTrue(SseFrames.looksLikeSse("event: error\ndata: {}\n\n"));
        assertFalse(SseFrames.looksLikeSse("{\"error\":{}}"));
        assertFalse(SseFrames.firstDataFrameComplete("data: {\"a\""));
    }
}
