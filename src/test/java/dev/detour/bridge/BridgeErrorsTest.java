package dev.detour.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.detour.bridge.BridgeErrors.BridgedError;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.secret.SecretMask;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * B-2, P-8': an upstream's error answer reaches the client in the client's envelope, with the status kept
 * (Anthropic's 529 and OpenAI's 503 exchanged, since each side knows only its own) and the message masked.
 */
class BridgeErrorsTest {
    private static String fixture(String name) throws IOException {
        try (InputStream in = BridgeErrorsTest.class.getResourceAsStream("/bridge/errors/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static BridgedError translate(EndpointFamily client, int status, String fixture) throws IOException {
        return BridgeErrors.translate(client, status, fixture(fixture), SecretMask.SHAPES);
    }

    @ParameterizedTest(name = "{1} {0} → {2} {3} {4}")
    @CsvSource(delimiter = '|', value = {
            "anthropic-overloaded.json|529|CHAT_COMPLETIONS|503|{\"error\":{\"message\":\"Overloaded\",\"type\":\"server_error\",\"param\":null,\"code\":null}}",
            "anthropic-overloaded.json|529|RESPONSES|503|{\"error\":{\"message\":\"Overloaded\",\"type\":\"server_error\",\"param\":null,\"code\":null}}",
            "anthropic-invalid-request.json|400|CHAT_COMPLETIONS|400|{\"error\":{\"message\":\"messages.1.content.0.tool_use.input: Field required\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":null}}",
            "openai-rate-limit.json|429|MESSAGES|429|{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"Rate limit reached for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000. Please try again in 2s.\"}}",
            "openai-rate-limit.json|429|RESPONSES|429|{\"error\":{\"message\":\"Rate limit reached for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000. Please try again in 2s.\",\"type\":\"rate_limit_error\",\"param\":null,\"code\":\"rate_limit_exceeded\"}}",
            "openai-service-unavailable.json|503|MESSAGES|529|{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"The server is overloaded or not ready yet.\"}}",
            "relay-bad-gateway.html|502|MESSAGES|502|{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"the upstream answered HTTP 502\"}}",
            "relay-bad-gateway.html|502|CHAT_COMPLETIONS|502|{\"error\":{\"message\":\"the upstream answered HTTP 502\",\"type\":\"server_error\",\"param\":null,\"code\":null}}"})
    void anUpstreamErrorTakesTheClientsEnvelopeAndStatus(String fixture, int status, EndpointFamily client,
            int clientStatus, String body) throws IOException {
        BridgedError error = translate(client, status, fixture);
        assertEquals(clientStatus, error.status());
        assertEquals(body, error.body().toString());
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({"400, invalid_request_error", "401, authentication_error", "402, billing_error", "403, permission_error",
            "404, not_found_error", "413, request_too_large", "422, invalid_request_error", "429, rate_limit_error",
            "500, api_error", "502, api_error", "504, timeout_error", "529, overloaded_error"})
    void anthropicClientsGetTheErrorTypeOfTheStatus(int status, String type) {
        assertEquals(type, BridgeErrors.anthropicType(status));
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({"400, invalid_request_error", "401, authentication_error", "403, permission_error",
            "404, invalid_request_error", "429, rate_limit_error", "500, server_error", "503, server_error"})
    void openAiClientsGetTheErrorTypeOfTheStatus(int status, String type) {
        assertEquals(type, BridgeErrors.openAiType(status));
    }

    @ParameterizedTest(name = "to {0}")
    @CsvSource({"MESSAGES", "CHAT_COMPLETIONS"})
    void aKeyInTheUpstreamsMessageIsMasked(EndpointFamily client) throws IOException {
        BridgedError error = translate(client, 401, "openai-invalid-key.json");
        assertEquals(401, error.status());
        assertFalse(error.body().toString().contains("sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"), error.body().toString());
    }
}
