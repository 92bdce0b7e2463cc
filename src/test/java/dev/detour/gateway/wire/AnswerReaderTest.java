package dev.detour.gateway.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.EndpointFamily;
import dev.detour.core.failure.AttemptFacts;
import dev.detour.core.failure.FailureClassifier;
import dev.detour.core.failure.Verdict;
import dev.detour.core.usage.TokenUsage;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** One read of a buffered answer: usage, S-7 cost, P-10 id and the F-4 envelope facts together. */
class AnswerReaderTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            // body | input | output | cache read | cache write | cost micros | id | clear | protocol (B-4)
            "{\"id\":\"chatcmpl-1\",\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5}}|10|5|0|0|-1|chatcmpl-1|true|chat_completions",
            "{\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5,\"cost\":0.00012}}|10|5|0|0|120|-|true|chat_completions",
            "{\"usage\":{\"cost\":0,\"prompt_tokens\":10}}|10|0|0|0|0|-|true|chat_completions",
            "{\"cost\":5,\"usage\":{\"prompt_tokens\":10}}|10|0|0|0|-1|-|true|chat_completions",
            "{\"usage\":{\"cost\":-1}}|0|0|0|0|-1|-|true|chat_completions",
            "{\"usage\":{\"cost\":\"0.5\"}}|0|0|0|0|-1|-|true|chat_completions",
            // B-4: OpenAI's prompt count includes its cached tokens, so input is 10 - 2
            "{\"usage\":{\"prompt_tokens\":10,\"prompt_tokens_details\":{\"cached_tokens\":2},\"cost\":0.5}}|8|0|2|0|500000|-|true|chat_completions",
            "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":9,\"cost\":1.2e-4}}|0|9|0|0|120|-|true|messages",
            "{\"type\":\"message\",\"usage\":{\"input_tokens\":7,\"cache_read_input_tokens\":3,\"cache_creation_input_tokens\":4}}|7|0|3|4|-1|-|true|messages",
            "{\"object\":\"response\",\"output\":[{\"id\":\"msg_9\"}],\"id\":\"resp_1\",\"status\":\"completed\",\"error\":null}|0|0|0|0|-1|resp_1|true|responses",
            "{\"id\":7,\"id\":\"second\"}|0|0|0|0|-1|second|true|chat_completions",
            "{\"id\":\"\",\"id\":\"later\"}|0|0|0|0|-1|-|true|chat_completions",
            "{\"response\":{\"usage\":{\"input_tokens\":3,\"output_tokens\":4}}}|3|4|0|0|-1|-|false|responses",
            "{\"a\":{\"usage\":{\"input_tokens\":3}},\"b\":{\"usage\":{\"output_tokens\":4,\"cost\":1}}}|3|4|0|0|1000000|-|true|chat_completions",
            "{\"error\":{\"message\":\"quota exhausted\"}}|0|0|0|0|-1|-|false|chat_completions",
            "{\"code\":500,\"message\":\"boom\"}|0|0|0|0|-1|-|false|chat_completions",
            "{\"message\":\"hello\"}|0|0|0|0|-1|-|false|chat_completions",
            "{\"status\":\"failed\"}|0|0|0|0|-1|-|false|chat_completions",
            "{\"type\":\"response.failed\"}|0|0|0|0|-1|-|false|chat_completions",
            "{\"usage\":{\"prompt_tokens\":10}} {}|10|0|0|0|-1|-|false|chat_completions",
            "{\"usage\":{\"prompt_tokens\":10},\"x\":|10|0|0|0|-1|-|false|chat_completions",
            "[{\"usage\":{\"prompt_tokens\":1}}]|1|0|0|0|-1|-|false|chat_completions",
            "not json|0|0|0|0|-1|-|false|chat_completions",
            "''|0|0|0|0|-1|-|false|chat_completions",
    })
    void readsUsageCostIdAndEnvelopeInOnePass(String body, long input, long output, long cacheRead, long cacheWrite,
            long cost, String id, boolean clear, String protocol) {
        AnswerFacts facts = AnswerReader.read(EndpointFamily.fromWire(protocol), bytes(body));
        assertEquals(new TokenUsage(input, output, cacheRead, cacheWrite, 0, 0), facts.usage());
        assertEquals(cost, facts.costMicros());
        assertEquals(id, facts.responseId());
        assertEquals(clear, facts.envelopeClear());
    }

    @Test
    void readsOnlyTheGivenSliceOfAFrame() {
        byte[] line = bytes("data: {\"usage\":{\"cost\":0.001}}");
        assertEquals(1000, AnswerReader.read(EndpointFamily.CHAT_COMPLETIONS, line, 5, line.length - 5).costMicros());
        assertEquals(-1, AnswerReader.read(EndpointFamily.CHAT_COMPLETIONS, line, 0, 5).costMicros());
    }

    @Test
    void aBodyWithoutAnyUsageObjectReportsNone() {
        AnswerFacts facts = AnswerReader.read(EndpointFamily.CHAT_COMPLETIONS, bytes("{\"choices\":[]}"));
        assertFalse(facts.usageSeen());
        assertEquals(TokenUsage.NONE, facts.usage());
    }

    /** F-4: a clear 2xx answer skips the classifier, so the classifier must call every such body a success. */
    @ParameterizedTest
    @ValueSource(strings = {
            "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"content\":\"quota exhausted\"}}]}",
            "{\"type\":\"message\",\"content\":[{\"type\":\"text\",\"text\":\"invalid_grant bad gateway\"}]}",
            "{\"object\":\"response\",\"status\":\"completed\",\"error\":null,\"output\":[{\"status\":\"failed\"}]}",
            "  {\"error\":\"just a string\",\"code\":null,\"message\":null,\"type\":\"ok\"}",
            "{\"choices\":[{\"error\":{\"message\":\"nested errors are content\"}}]}",
            "{}",
            "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}",
            "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"content\":[]}}",
    })
    void everyClearAnswerIsASuccessForTheClassifier(String body) {
        assertTrue(AnswerReader.read(EndpointFamily.CHAT_COMPLETIONS, bytes(body)).envelopeClear(), body);
        Verdict verdict = FailureClassifier.classify(AttemptFacts.response(200, Map.of(), body), Instant.EPOCH);
        assertEquals(Verdict.SUCCESS, verdict, body);
        // F-4: a stream whose first data frame is clear is handed on without the classifier (UpstreamAttempt)
        Verdict firstFrame = FailureClassifier.classify(AttemptFacts.streamStart(200, Map.of(),
                "data: " + body + "\n\n"), Instant.EPOCH);
        assertEquals(Verdict.SUCCESS, firstFrame, body);
    }

    /** First data frames the classifier fails in a 200 stream are never clear: they still go through it. */
    @ParameterizedTest
    @ValueSource(strings = {
            "{\"error\":{\"message\":\"insufficient_quota\",\"type\":\"insufficient_quota\"}}",
            "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}",
            "{\"type\":\"response.failed\",\"response\":{\"status\":\"failed\",\"error\":{\"code\":\"server_error\"}}}",
            "{\"code\":\"E1\",\"message\":\"upstream busy\"}",
            "{\"status\":\"failed\"}",
    })
    void failingFirstFramesAreNeverClear(String data) {
        assertFalse(AnswerReader.read(EndpointFamily.CHAT_COMPLETIONS, bytes(data)).envelopeClear(), data);
        Verdict verdict = FailureClassifier.classify(AttemptFacts.streamStart(200, Map.of(), "data: " + data + "\n\n"),
                Instant.EPOCH);
        assertTrue(verdict.isFailure(), data);
    }

    /** Bodies the classifier fails are never clear: they still go through it. */
    @ParameterizedTest
    @ValueSource(strings = {
            "{\"error\":{\"message\":\"insufficient_quota\",\"type\":\"insufficient_quota\"}}",
            "{\"error\":{\"code\":\"rate_limited\"}}",
            "{\"code\":\"E1\",\"message\":\"upstream busy\"}",
            "{\"type\":\"response.failed\",\"response\":{\"status\":\"failed\"}}",
            "{\"status\":\"failed\"}",
            "\uFEFF{\"error\":{\"message\":\"bad gateway\"}}",
            "",
            "bad gateway",
    })
    void failingAnswersAreNeverClear(String body) {
        assertFalse(AnswerReader.read(EndpointFamily.CHAT_COMPLETIONS, bytes(body)).envelopeClear(), body);
        Verdict verdict = FailureClassifier.classify(AttemptFacts.response(200, Map.of(), body), Instant.EPOCH);
        assertTrue(verdict.isFailure(), body);
    }
}
