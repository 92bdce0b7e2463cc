package dev.detour.core.secret;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** the masker over realistic upstream error bodies: what it masks, and what it must leave alone. */
class SecretMaskTest {
    static final String ACCOUNT_KEY = "sk-test-abcdef0123456789wxyz";
    /** A relay key with no recognisable shape: only knowing it masks it. */
    static final String PLAIN_KEY = "relaykeyonlylowercaseletters";
    static final SecretMask MASK = SecretMask.knowing(List.of("Bearer " + ACCOUNT_KEY, PLAIN_KEY));

    static List<Arguments> positives() {
        return List.of(
                Arguments.of("OpenAI invalid key, the account's own key echoed",
                        "{\"error\":{\"message\":\"Incorrect API key provided: sk-test-abcdef0123456789wxyz. You can "
                                + "find your API key at https://platform.openai.com/account/api-keys.\",\"type\":"
                                + "\"invalid_request_error\",\"param\":null,\"code\":\"invalid_api_key\"}}",
                        "{\"error\":{\"message\":\"Incorrect API key provided: sk-…wxyz. You can find your API key at "
                                + "https://platform.openai.com/account/api-keys.\",\"type\":\"invalid_request_error\","
                                + "\"param\":null,\"code\":\"invalid_api_key\"}}"),
                Arguments.of("a known key with no key shape",
                        "{\"error\":{\"message\":\"token relaykeyonlylowercaseletters is disabled\"}}",
                        "{\"error\":{\"message\":\"token rel…ters is disabled\"}}"),
                Arguments.of("another relay's sk- key (unknown), new-api style",
                        "{\"error\":{\"message\":\"无效的令牌 sk-Zq3XbT9vLm2NpR8sKd4FhG7jWc1YeA6u (request id: "
                                + "2024072008341187913573146gT6Pq5H)\",\"type\":\"new_api_error\"}}",
                        "{\"error\":{\"message\":\"无效的令牌 sk-…eA6u (request id: 2024072008341187913573146gT6Pq5H)\","
                                + "\"type\":\"new_api_error\"}}"),
                Arguments.of("Anthropic key echoed by a relay",
                        "invalid x-api-key sk-ant-api03-R2D2c3poBB8xYzQwErTy-UiOpAsDfGhJkL_0123456789-abcdAA",
                        "invalid x-api-key sk-…cdAA"),
                Arguments.of("OpenAI project key",
                        "key sk-proj-AbCdEf0123456789GhIjKl_mnopQRstuv was revoked",
                        "key sk-…stuv was revoked"),
                Arguments.of("a Detour key",
                        "{\"error\":\"unknown key dtr-q9Xb3T0vLm2NpR8sKd4FhG7jWc1YeA6uZ\"}",
                        "{\"error\":\"unknown key dtr-…A6uZ\"}"),
                Arguments.of("a Google API key in a URL",
                        "GET https://generativelanguage.googleapis.com/v1beta/models?alt=sse&key="
                                + "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY failed",
                        "GET https://generativelanguage.googleapis.com/v1beta/models?alt=sse&key=AIz…MBWY failed"),
                Arguments.of("a bearer token echoed back",
                        "{\"detail\":\"Authorization header Bearer 9f8e7d6c5b4a39281706f5e4 rejected\"}",
                        "{\"detail\":\"Authorization header Bearer 9f8…f5e4 rejected\"}"),
                Arguments.of("an echoed request header, header style",
                        "received headers: x-api-key: ab12cd34ef56gh78, content-type: application/json",
                        "received headers: x-api-key: ab1…gh78, content-type: application/json"),
                Arguments.of("an echoed request, JSON style",
                        "{\"request\":{\"api_key\":\"k9-0123abcdefgh\",\"model\":\"gpt-4o\"}}",
                        "{\"request\":{\"api_key\":\"k9-…efgh\",\"model\":\"gpt-4o\"}}"),
                Arguments.of("JSON escaped inside an error message",
                        "{\"error\":{\"message\":\"bad body {\\\"apiKey\\\":\\\"xyz-7788990011aa\\\"}\"}}",
                        "{\"error\":{\"message\":\"bad body {\\\"apiKey\\\":\\\"xyz-…11aa\\\"}\"}}"),
                Arguments.of("an authorization header value keeps its scheme",
                        "authorization: Bearer abc123def456ghi789",
                        "authorization: Bearer abc…i789"),
                Arguments.of("an access token field",
                        "{\"access_token\":\"ya29.a0AfH6SMBx3-qwertyUIOP1234\",\"expires_in\":3599}",
                        "{\"access_token\":\"ya2…1234\",\"expires_in\":3599}"),
                Arguments.of("an unknown random key with no prefix",
                        "{\"error\":{\"message\":\"key Q7rT2pXz9LmN4bVc8KjH3sDf is over its quota\"}}",
                        "{\"error\":{\"message\":\"key Q7r…3sDf is over its quota\"}}"),
                Arguments.of("the Bearer form of a known key",
                        "Authorization: Bearer sk-test-abcdef0123456789wxyz",
                        "Authorization: Bearer sk-…wxyz"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("positives")
    void secretsInUpstreamErrorBodiesAreMasked(String what, String body, String expected) {
        String masked = MASK.apply(body);

        assertEquals(expected, masked);
        assertFalse(masked.contains(ACCOUNT_KEY) || masked.contains(PLAIN_KEY), masked);
        assertEquals(masked, MASK.apply(masked), "masking twice changes nothing");
    }

    static List<Arguments> negatives() {
        return List.of(
                Arguments.of("OpenAI's own redacted key", "{\"error\":{\"message\":\"Incorrect API key provided: "
                        + "sk-proj-********************************************abcd. You can find your API key at "
                        + "https://platform.openai.com/account/api-keys.\",\"type\":\"invalid_request_error\","
                        + "\"param\":null,\"code\":\"invalid_api_key\"}}"),
                Arguments.of("Anthropic authentication error with its request id",
                        "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid "
                                + "x-api-key\"},\"request_id\":\"req_011CSHoEeqs5C35K2UUqR7Fy\"}"),
                Arguments.of("Anthropic overloaded", "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
                        + "\"message\":\"Overloaded\"}}"),
                Arguments.of("OpenAI rate limit with org id and model",
                        "{\"error\":{\"message\":\"Rate limit reached for gpt-4o-mini-2024-07-18 in organization "
                                + "org-AbCdEfGh1234567890XyZaBc on tokens per min (TPM): Limit 200000, Used 199000, "
                                + "Requested 1500. Please try again in 150ms.\",\"type\":\"tokens\",\"param\":null,"
                                + "\"code\":\"rate_limit_exceeded\"}}"),
                Arguments.of("ids of messages, completions, tool calls and responses",
                        "{\"id\":\"chatcmpl-AbC123dEf456GhI789jKl012MnO\",\"msg\":\"msg_01XFDUDYJgAACzvnptvVoYEL\","
                                + "\"tool\":\"toolu_01A09q90qw90lq917835lq9\",\"resp\":\"resp_67ccd2bed1ec8190b14f964abc"
                                + "0542670bb6a6b452d3795b\",\"call\":\"call_Xy7ZaBcDeFgHiJkLmNoPqRsT\"}"),
                Arguments.of("model names", "model claude-3-5-sonnet-20241022, claude-sonnet-4-5-20250929, "
                        + "gpt-4o-2024-08-06, Meta-Llama-3.1-70B-Instruct-Turbo, Qwen2.5-Coder-32B-Instruct, "
                        + "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B and gemini-2.5-pro-preview-06-05 are unknown"),
                Arguments.of("a relay's timestamp-led request id", "{\"error\":{\"message\":\"当前分组上游负载已饱和，"
                        + "请稍后再试 (request id: 2024072008341187913573146gT6Pq5H)\",\"type\":\"new_api_error\"}}"),
                Arguments.of("UUIDs, hex trace ids and Detour fingerprints",
                        "{\"trace_id\":\"4bf92f3577b34da6a3ce929d0e0e4736\",\"id\":\"550e8400-e29b-41d4-a716-"
                                + "446655440000\",\"fp\":\"sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\"}"),
                Arguments.of("prose about keys and tokens",
                        "Bearer authentication required: the api key is missing; x-api-key: header is required; "
                                + "authorization: missing_or_invalid_header; prompt_tokens: 123456789"),
                Arguments.of("camel-case words and Detour's own errors",
                        "{\"error\":{\"message\":\"every route failed after 2 attempt(s); request "
                                + "01JDXK5E8R8Q6V2WJ9YH3N4M7P\",\"type\":\"detour_error\",\"code\":\"pool.all_failed\"}} "
                                + "InternalServerErrorExceptionHandler"),
                Arguments.of("a masked key stays as it is", "Incorrect API key provided: sk-…wxyz"),
                Arguments.of("a Gemini error", "{\"error\":{\"code\":400,\"message\":\"API key not valid. Please pass "
                        + "a valid API key.\",\"status\":\"INVALID_ARGUMENT\",\"details\":[{\"@type\":\"type."
                        + "googleapis.com/google.rpc.ErrorInfo\",\"reason\":\"API_KEY_INVALID\",\"domain\":"
                        + "\"googleapis.com\",\"metadata\":{\"service\":\"generativelanguage.googleapis.com\"}}]}}"),
                Arguments.of("usage numbers and short words", "{\"usage\":{\"prompt_tokens\":1234567890,"
                        + "\"completion_tokens\":20,\"total_tokens\":1234567910},\"password_hint\":\"none\"}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("negatives")
    void ordinaryErrorBodiesIdsAndModelNamesStayUnchanged(String what, String body) {
        assertEquals(body, MASK.apply(body));
    }

    @Test
    void theOneMaskingFormatKeepsThreeCharactersOrADashedPrefixAndTheLastFour() {
        assertEquals("sk-…wxyz", SecretMask.hint(ACCOUNT_KEY));
        assertEquals("dtr-…abcd", SecretMask.hint("dtr-0123456789abcd"));
        assertEquals("AIz…MBWY", SecretMask.hint("AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"));
        assertEquals("…jk", SecretMask.hint("abcdefghijk"));
    }

    @Test
    void theKnownSecretsAreGatheredOnlyWhenSomethingIsMasked() {
        AtomicInteger asked = new AtomicInteger();
        SecretMask lazy = SecretMask.knowingLazily(() -> {
            asked.incrementAndGet();
            return List.of(PLAIN_KEY);
        });
        assertEquals(0, asked.get());

        assertEquals("a rel…ters b", lazy.apply("a " + PLAIN_KEY + " b"));
        lazy.apply(PLAIN_KEY);

        assertEquals(1, asked.get(), "gathered once");
    }

    @Test
    void bytesWithoutSecretsAreReturnedAsTheSameArray() {
        byte[] clean = "{\"error\":{\"message\":\"bad request\"}}".getBytes(StandardCharsets.UTF_8);
        assertSame(clean, MASK.apply(clean));
        byte[] leaking = ("{\"error\":\"" + ACCOUNT_KEY + "\"}").getBytes(StandardCharsets.UTF_8);
        assertArrayEquals("{\"error\":\"sk-…wxyz\"}".getBytes(StandardCharsets.UTF_8), MASK.apply(leaking));
    }

    @Test
    void nullAndEmptyPassThrough() {
        assertNull(MASK.apply((String) null));
        assertEquals("", MASK.apply(""));
    }

    @Test
    void aCutNeverKeepsTheHeadOfASplitToken() {
        String text = "message: key ab12cd34ef56 and more";
        assertEquals("message: key ", SecretMask.cut(text, 16), "the cut falls inside the token: it goes whole");
        assertEquals("message: key ab12cd34ef56 ", SecretMask.cut(text, 26));
        assertEquals(text, SecretMask.cut(text, 200));
        assertTrue(SecretMask.cut(text, 13).endsWith(" "));
        String noKey = "x".repeat(2000);
        assertEquals(1000, SecretMask.cut(noKey, 1000).length(), "a run longer than any key is cut where it is");
    }
}
