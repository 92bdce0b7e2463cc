package dev.detour.gateway.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.detour.core.account.EndpointFamily;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ResponseIdsTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theTopLevelIdOfABufferedResponsesAnswerIsItsResponseId() {
        assertEquals("resp_1", ResponseIds.of(EndpointFamily.RESPONSES, AnswerReader.read(EndpointFamily.RESPONSES,
                bytes("{\"object\":\"response\",\"output\":[{\"id\":\"msg_9\"}],\"id\":\"resp_1\"}"))));
    }

    @Test
    void otherFamiliesAndBodiesWithoutAnIdBindNothing() {
        assertNull(ResponseIds.of(EndpointFamily.CHAT_COMPLETIONS,
                AnswerReader.read(EndpointFamily.CHAT_COMPLETIONS, bytes("{\"id\":\"chatcmpl-1\"}"))));
        assertNull(ResponseIds.of(EndpointFamily.RESPONSES,
                AnswerReader.read(EndpointFamily.RESPONSES, bytes("{\"object\":\"response\"}"))));
        assertNull(ResponseIds.of(EndpointFamily.RESPONSES,
                AnswerReader.read(EndpointFamily.RESPONSES, bytes("not json"))));
    }

    @Test
    void aStreamIsBoundByTheIdInsideItsResponseEvent() {
        assertEquals("resp_s", ResponseIds.fromStreamText("event: response.created\ndata: {\"type\":"
                + "\"response.created\",\"response\": {\"id\":\"resp_s\",\"object\":\"response\"}}\n\n"));
        assertNull(ResponseIds.fromStreamText("data: {\"type\":\"response.output_text.delta\"}\n\n"));
    }
}
