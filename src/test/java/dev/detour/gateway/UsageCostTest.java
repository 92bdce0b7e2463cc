package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** S-7: the cost an upstream reports in usage, as micros; -1 when it reports none. */
class UsageCostTest {
    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', value = {
            "{\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5,\"cost\":0.00012}}|120",
            "{\"usage\":{\"cost\":0,\"prompt_tokens\":10}}|0",
            "{\"usage\":{\"prompt_tokens\":10}}|-1",
            "{\"cost\":5,\"usage\":{\"prompt_tokens\":10}}|-1",
            "{\"usage\":{\"cost\":-1}}|-1",
            "not json|-1",
            "{\"usage\":{\"prompt_tokens\":10,\"prompt_tokens_details\":{\"cached_tokens\":2},\"cost\":0.5}}|500000",
            "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":9,\"cost\":1.2e-4}}|120",
    })
    void readsTheUsageCost(String body, long micros) {
        assertEquals(micros, UsageCost.micros(body.getBytes(StandardCharsets.UTF_8)));
    }

    @org.junit.jupiter.api.Test
    void readsOnlyTheGivenSliceOfAFrame() {
        byte[] line = "data: {\"usage\":{\"cost\":0.001}}".getBytes(StandardCharsets.UTF_8);
        assertEquals(1000, UsageCost.micros(line, 5, line.length - 5));
        assertEquals(-1, UsageCost.micros(line, 0, 5));
    }
}
