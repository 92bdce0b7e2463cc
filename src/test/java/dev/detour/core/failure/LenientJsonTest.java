package dev.detour.core.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** N-5: the failure detector's JSON reader never throws, whatever arrives. */
class LenientJsonTest {

    @Test
    void readsObjectsArraysStringsNumbersAndLiterals() {
        Object value = LenientJson.parse("{\"a\":[1,-2.5e3,true,false,null],\"b\":\"x\\u4f60\\n\\\"\",\"c\":{}}");
        Map<?, ?> map = (Map<?, ?>) value;
        assertEquals(List.of(new BigDecimal("1"), new BigDecimal("-2.5e3"), true, false, LenientJson.NULL),
                map.get("a"));
        assertEquals("x你\n\"", map.get("b"));
        assertEquals(Map.of(), map.get("c"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {"", "{", "{\"a\":", "{\"a\":1,}", "[1,2", "{\"a\" 1}", "{'a':1}", "nul", "-", "1e",
            "{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}", "{\"a\":1} trailing", "\"unterminated", "{\"a\":tru}"})
    void invalidJsonIsNullNeverAnException(String text) {
        assertNull(LenientJson.parse(text));
    }

    @Test
    void absurdNestingIsRejectedWithoutAStackOverflow() {
        String deep = "[".repeat(100_000) + "]".repeat(100_000);
        assertNull(LenientJson.parse(deep));
        String ok = "[".repeat(60) + "]".repeat(60);
        assertTrue(LenientJson.parse(ok) instanceof List);
    }

    @Test
    void theClassifierSurvivesGarbageBodies() {
        Instant now = Instant.EPOCH;
        for (String body : new String[] {"{\"error\":", "\u0000\uFFFF\uD800", "data: {\"error\":\n\n", "[".repeat(5000),
                "{\"error\":{\"message\":null,\"code\":[]}}"}) {
            for (int status : new int[] {200, 429, 500}) {
                assertTrue(FailureClassifier.classify(AttemptFacts.response(status, null, body), now) != null);
                assertTrue(FailureClassifier.classify(AttemptFacts.streamed(status, Map.of(), body), now) != null);
            }
        }
    }
}
