package dev.detour.gateway.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.core.account.EndpointFamily;
import dev.detour.core.usage.TokenUsage;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Usage and S-7 cost of a stream, whatever way the bytes are split into reads. */
class UsageLinesTest {
    private static final byte[] STREAM = ("event: message_start\n"
            + "data: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":12,\"output_tokens\":1}}}\n\n"
            + ": keep-alive\r\n"
            + "data: {\"type\":\"content_block_delta\",\"delta\":{\"text\":\"日本語 usage\"}}\n\n"
            + "data: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":9,\"cost\":0.0002}}\r\n\r\n"
            + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"cost\":-1}}\n\n"
            + "data: [DONE]\n\n").getBytes(StandardCharsets.UTF_8);

    @Test
    void theWholeStreamInOneReadMergesUsageAndKeepsTheLastCost() {
        UsageLines lines = new UsageLines(EndpointFamily.MESSAGES);
        lines.feed(STREAM, 0, STREAM.length);
        assertEquals(new TokenUsage(12, 9, 0, 0, 0, 0), lines.usage());
        assertEquals(200, lines.costMicros());
    }

    @Test
    void everySplitPointAndByteByByteGiveTheSameResult() {
        for (int split = 0; split <= STREAM.length; split++) {
            UsageLines lines = new UsageLines(EndpointFamily.MESSAGES);
            lines.feed(STREAM, 0, split);
            lines.feed(STREAM, split, STREAM.length - split);
            assertEquals(new TokenUsage(12, 9, 0, 0, 0, 0), lines.usage(), "split at " + split);
            assertEquals(200, lines.costMicros(), "split at " + split);
        }
        UsageLines single = new UsageLines(EndpointFamily.MESSAGES);
        for (int i = 0; i < STREAM.length; i++) {
            single.feed(STREAM, i, 1);
        }
        assertEquals(new TokenUsage(12, 9, 0, 0, 0, 0), single.usage());
    }

    @Test
    void aBufferedSseBodyCountsItsLastLineWithoutANewline() {
        byte[] body = "data: {\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":2,\"cost\":0.001}}"
                .getBytes(StandardCharsets.UTF_8);
        AnswerFacts facts = UsageLines.of(EndpointFamily.CHAT_COMPLETIONS, body);
        assertEquals(new TokenUsage(4, 2, 0, 0, 0, 0), facts.usage());
        assertEquals(1000, facts.costMicros());
    }

    @Test
    void aStreamWithoutUsageReportsNone() {
        byte[] body = "data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n"
                .getBytes(StandardCharsets.UTF_8);
        UsageLines lines = new UsageLines(EndpointFamily.CHAT_COMPLETIONS);
        lines.feed(body, 0, body.length);
        assertEquals(TokenUsage.NONE, lines.usage());
        assertEquals(-1, lines.costMicros());
    }
}
