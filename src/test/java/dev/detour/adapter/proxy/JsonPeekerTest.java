package dev.detour.adapter.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.gateway.wire.BodyRewriter;
import dev.detour.gateway.port.RequestPeek;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonPeekerTest {
    private static RequestPeek peek(String json) {
        return JsonPeeker.peek(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void findsModelAndStreamWithoutCaringAboutNestedValues() {
        RequestPeek p = peek("{\"messages\":[{\"role\":\"user\",\"content\":\"model stream\",\"model\":\"inner\"}],"
                + "\"model\":\"gpt-5.6-sol\",\"stream\":true}");
        assertEquals("gpt-5.6-sol", p.model());
        assertTrue(p.stream());
    }

    @Test
    void rewritesOnlyTheModelValueAndKeepsEveryOtherByte() {
        String body = "{ \"model\" : \"gpt-5.6-sol\",\n \"messages\":[{\"content\":\"gpt-5.6-sol\"}], \"x\":1.50 }";
        RequestPeek p = peek(body);
        byte[] out = BodyRewriter.withModel(body.getBytes(StandardCharsets.UTF_8), p, "upstream-\"sol\"");
        assertEquals("{ \"model\" : \"upstream-\\\"sol\\\"\",\n \"messages\":[{\"content\":\"gpt-5.6-sol\"}], \"x\":1.50 }",
                new String(out, StandardCharsets.UTF_8));
    }

    @Test
    void rewriteKeepsMultibyteTextAroundTheModel() {
        String body = "{\"prompt\":\"额度 ✓\",\"model\":\"glm-5.3\",\"tail\":\"日本\"}";
        byte[] out = BodyRewriter.withModel(body.getBytes(StandardCharsets.UTF_8), peek(body), "upstream-glm");
        assertEquals("{\"prompt\":\"额度 ✓\",\"model\":\"upstream-glm\",\"tail\":\"日本\"}",
                new String(out, StandardCharsets.UTF_8));
    }

    @Test
    void sessionIdFollowsTheSpecOrder() {
        assertEquals("c1", peek("{\"user\":\"u\",\"prompt_cache_key\":\"p\",\"metadata\":{\"user_id\":\"m\","
                + "\"conversation_id\":\"c1\"}}").sessionId());
        assertEquals("m", peek("{\"user\":\"u\",\"metadata\":{\"user_id\":\"m\"}}").sessionId());
        assertEquals("p", peek("{\"user\":\"u\",\"prompt_cache_key\":\"p\"}").sessionId());
        assertEquals("u", peek("{\"user\":\"u\"}").sessionId());
    }

    @Test
    void claudeCodesSessionInsideMetadataUserIdComesBeforeEveryOtherBodyField() {
        assertEquals("57a1-legacy", peek("{\"metadata\":{\"conversation_id\":\"c1\",\"user_id\":"
                + "\"user_9f_account__session_57a1-legacy\"},\"user\":\"u\"}").sessionId());
        assertEquals("54c1-json", peek("{\"metadata\":{\"conversation_id\":\"c1\",\"user_id\":"
                + "\"{\\\"device_id\\\":\\\"d\\\",\\\"account_uuid\\\":\\\"\\\",\\\"session_id\\\":\\\"54c1-json\\\"}\"}}")
                .sessionId());
        assertEquals("c1", peek("{\"metadata\":{\"conversation_id\":\"c1\",\"user_id\":\"alice\"}}").sessionId(),
                "a user_id without a session keeps its old place");
    }

    @Test
    void aConversationRequestIsNeverSentTwiceThoughItHasNoStoreOrBackground() {
        RequestPeek q = peek("{\"model\":\"m\",\"conversation\":\"conv_9\"}");
        assertFalse(q.sideEffecting());
        assertTrue(q.neverSentTwice());
        assertEquals("conversation:conv_9", q.stateId());
        assertFalse(peek("{\"model\":\"m\",\"previous_response_id\":\"resp_1\"}").neverSentTwice());
    }

    @Test
    void stateBoundAndSideEffectingFieldsAreSeen() {
        RequestPeek p = peek("{\"model\":\"m\",\"previous_response_id\":\"resp_1\",\"store\":true}");
        assertTrue(p.stateBound());
        assertTrue(p.sideEffecting());
        RequestPeek q = peek("{\"model\":\"m\",\"conversation\":{\"id\":\"conv_9\"},\"background\":false}");
        assertEquals("conv_9", q.conversation());
        assertFalse(q.sideEffecting());
    }

    @Test
    void emptyBodyHasNoModel() {
        assertNull(JsonPeeker.peek(new byte[0]).model());
    }

    @ParameterizedTest
    @ValueSource(strings = {"{", "[1,2]", "\"model\"", "{\"model\":\"a\"} trailing", "{\"model\":}", "nul",
            "{\"model\":\"a\",\"model\":\"b\"}"})
    void malformedBodiesAreRejected(String body) {
        assertThrows(InvalidJsonException.class, () -> peek(body));
    }

    @Test
    void invalidUtf8IsRejected() {
        byte[] body = {'{', '"', 'm', 'o', 'd', 'e', 'l', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
        assertThrows(InvalidJsonException.class, () -> JsonPeeker.peek(body));
    }

    @Test
    void readsAChatClientsStreamUsageRequestAsAJsonTreeWouldAndNothingElse() {
        assertTrue(peek("{\"stream_options\":{\"x\":[1,{\"include_usage\":false}],\"include_usage\":true},"
                + "\"model\":\"m\"}").includeUsage());
        assertTrue(peek("{\"stream_options\":{\"include_usage\":\"true\"}}").includeUsage());
        assertTrue(peek("{\"stream_options\":{\"include_usage\":1}}").includeUsage());
        assertFalse(peek("{\"stream_options\":{\"include_usage\":0}}").includeUsage());
        assertFalse(peek("{\"stream_options\":true,\"include_usage\":true}").includeUsage());
        assertFalse(peek("{\"messages\":[{\"stream_options\":{\"include_usage\":true}}]}").includeUsage());
        assertEquals("m", peek("{\"stream_options\":{\"include_usage\":true},\"model\":\"m\"}").model());
    }
}
