package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.fake.Reply;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Seed provider-failover's bad-request guard: the most retry-happy configuration there is (ten
 * same-account retries, cooldown, a breaker at one failure, group halts on, many attempts) still
 * never retries, switches, cools or halts on a None-class answer.
 */
class BadRequestGuardIT {
    private static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"}]";
    private static final String EAGER = "{\"priority\":0,\"failure_policy\":{\"retry_count\":10,\"retry_interval_ms\":0,"
            + "\"cooldown_enabled\":true,\"cooldown_seconds\":60,\"semantic_error_threshold\":1},"
            + "\"breaker\":{\"enabled\":true,\"threshold\":1}}";
    private Gateway gw;
    private FakeUpstream a;
    private FakeUpstream b;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        a = FakeUpstream.start();
        b = FakeUpstream.start();
        gw.enableGroupHalt();
    }

    @AfterEach
    void stop() {
        gw.close();
        a.close();
        b.close();
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "400|invalid_request_error|This model's maximum context length is 128000 tokens",
            "400|invalid_request_error|image input is not supported",
            "404|not_found_error|no such route",
            "413|invalid_request_error|request too large",
            "422|invalid_request_error|unprocessable: bad tool schema",
    })
    void aNoneClassAnswerIsReturnedOnceWhateverThePolicySays(int status, String type, String message) {
        long idA = gw.account("a", a, MAPS, EAGER);
        gw.account("b", b, MAPS, EAGER.replace("\"priority\":0", "\"priority\":1"));
        String body = "{\"error\":{\"message\":\"" + message + "\",\"type\":\"" + type + "\"}}";
        a.enqueue(Reply.json(status, body));

        HttpResponse<String> response = gw.chat("gpt-5.6-sol");

        assertEquals(status, response.statusCode());
        assertEquals(body, response.body(), "returned as-is");
        assertEquals(1, a.requestCount(), "never retried on the same account");
        assertEquals(0, b.requestCount(), "never switched");
        JsonNode state = gw.accountState(idA);
        assertEquals(0, state.path("transient_failure_count").asInt());
        assertEquals(0, state.path("breaker_failure_streak").asInt(), "no breaker signal");
        assertEquals(0, state.path("cooldown_remaining_s").asInt());
        assertEquals(0, state.path("models").size(), "no model state");
        JsonNode group = gw.admin("GET", "/groups", null).path("items").get(0);
        assertEquals(0, group.path("halted_remaining_s").asInt(), "no halt");
        assertEquals("returned_client_error", gw.events(1).get(0).path("reason_code").asText());
    }
}
