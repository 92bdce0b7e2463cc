package dev.detour.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class StopReasonTest {
    @ParameterizedTest
    @CsvSource({"end_turn,END,stop", "max_tokens,MAX_TOKENS,length", "stop_sequence,STOP_SEQUENCE,stop",
            "tool_use,TOOL_USE,tool_calls", "refusal,REFUSAL,content_filter", "pause_turn,PAUSE,stop"})
    void messagesReasonsMapToChatFinishReasons(String messages, StopReason reason, String chat) {
        assertEquals(reason, StopReason.fromMessages(messages));
        assertEquals(messages, reason.toMessages());
        assertEquals(chat, reason.toChat());
    }

    @ParameterizedTest
    @CsvSource({"stop,END,end_turn", "length,MAX_TOKENS,max_tokens", "tool_calls,TOOL_USE,tool_use",
            "function_call,TOOL_USE,tool_use", "content_filter,CONTENT_FILTER,refusal"})
    void chatFinishReasonsMapToMessagesStopReasons(String chat, StopReason reason, String messages) {
        assertEquals(reason, StopReason.fromChat(chat));
        assertEquals(messages, reason.toMessages());
    }

    @ParameterizedTest
    @CsvSource(value = {"completed,,false,END", "completed,,true,TOOL_USE", "incomplete,max_output_tokens,false,MAX_TOKENS",
            "incomplete,content_filter,false,CONTENT_FILTER"})
    void responsesStatusReadsAsAStopReason(String status, String reason, boolean callsTool, StopReason expected) {
        assertEquals(expected, StopReason.fromResponses(status, reason, callsTool));
    }

    @ParameterizedTest
    @EnumSource(StopReason.class)
    void onlyTruncatedAnswersAreIncompleteResponses(StopReason reason) {
        boolean incomplete = reason == StopReason.MAX_TOKENS || reason == StopReason.CONTENT_FILTER;
        assertEquals(incomplete ? "incomplete" : "completed", reason.toResponsesStatus());
        if (!incomplete) {
            assertNull(reason.toResponsesIncompleteReason());
        }
    }

    @ParameterizedTest
    @CsvSource(value = {"NULL", "something_new"}, nullValues = "NULL")
    void unknownOrMissingReasonsReadAsANormalEnd(String value) {
        assertEquals(StopReason.END, StopReason.fromChat(value));
        assertEquals(StopReason.END, StopReason.fromMessages(value));
    }
}
