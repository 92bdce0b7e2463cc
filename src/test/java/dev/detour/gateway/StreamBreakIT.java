package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.Bodies;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.OneUpstreamCase;
import dev.detour.testkit.Received;
import dev.detour.fake.Reply;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * F-4' over real HTTP: a stream that breaks upstream after bytes reached the client ends, for the client,
 * the way its protocol reports a failure — Messages an {@code event: error} frame, Responses a
 * {@code response.failed} event, Chat Completions no [DONE] — and then a chunked body without its
 * terminating chunk (read on a raw socket) — and is logged as a failure whose attempt names its failure kind. End
 * markers inside generated text never make a cut stream complete; upstream error events are masked.
 */
class StreamBreakIT extends OneUpstreamCase {
    static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"}]";
    static final String NO_RETRY = "\"failure_policy\":{\"retry_count\":0}";
    /** A relay key of no recognisable shape: only the request's own mask can hide it. */
    static final String PLAIN_KEY = "relay-key-lowercase-only-0123456789";
    static final String PLAIN_MASKED = "rel…6789";
    static final String MESSAGES_BODY = "{\"model\":\"gpt-5.6-sol\",\"max_tokens\":100,\"stream\":true,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    static final String CHAT_BODY = "{\"model\":\"gpt-5.6-sol\",\"stream\":true,\"messages\":[]}";

    static List<String> anthropicStart() {
        return List.of(
                "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
                        + "\"content\":[],\"model\":\"upstream-sol\",\"usage\":{\"input_tokens\":30,\"output_tokens\":1}}}",
                "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}");
    }

    static String anthropicText(String text) {
        return "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":"
                + Bodies.quote(text) + "}}";
    }

    private static List<String> plus(List<String> head, String... more) {
        List<String> all = new java.util.ArrayList<>(head);
        all.addAll(List.of(more));
        return all;
    }

    /** The body as far as the client's HTTP layer delivered it; the second value: whether that ended in an error. */
    record Read(String text, boolean failed) {
    }

    static Read read(Received response) {
        return new Read(response.text(), response.failed());
    }

    /**
     * Every byte Detour sent on a plain keep-alive socket (so the body is chunked), up to the chunked
     * body's terminating chunk or the connection's end, whichever comes first: status line, headers, framing.
     */
    static String rawPost(int port, String key, String path, String body) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(60_000); // a safety net against a hang, never a timing assertion
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + key
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.flush();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[4096];
            int n;
            try {
                while ((n = in.read(buffer)) >= 0) {
                    all.write(buffer, 0, n);
                    if (all.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n0\r\n\r\n")) {
                        break; // the body ended properly; the connection would stay open for the next request
                    }
                }
            } catch (java.net.SocketException e) {
                // a reset is an ending too: what arrived before it is what the client has
            }
            return all.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private void assertLoggedAsTruncation(long accountId) {
        JsonNode event = gw.events(1).get(0);
        assertEquals("failure", event.path("outcome").asText(), event.toString());
        assertEquals("stream.truncated", event.path("error_code").asText());
        JsonNode attempt = event.path("attempts").get(0);
        assertEquals(accountId, attempt.path("account_id").asLong());
        assertEquals("semantic_response_transient", attempt.path("failure_kind").asText(), event.toString());
        assertEquals("model", attempt.path("scope").asText());
        JsonNode row = gw.accountState(accountId).path("models").get(0);
        assertEquals("semantic_response_transient", row.path("last_failure_kind").asText());
    }

    /**
     * A cut Messages stream is relayed as a cut (no Detour-made {@code event: error}): the Anthropic SDK then
     * raises exactly what it raises against the upstream directly ({@code TypeError: terminated}), where an
     * error frame made it raise {@code APIError} (NodeSdkIT compares both ways).
     */
    @Test
    void aMessagesStreamCutMidWayIsAbortedAsACutEvenWhenItsTextSaysMessageStop() {
        long id = gw.account("claude", upstream, MAPS, "{\"platform\":\"anthropic\"," + NO_RETRY + "}");
        upstream.enqueue(Reply.sseThenCut(plus(anthropicStart(),
                anthropicText("The last event is message_stop, as in {\"type\":\"message_stop\"}"),
                anthropicText(" and data: [DONE] ends a chat stream"))));

        Received response = gw.postReceiving("/v1/messages", MESSAGES_BODY);
        Read read = read(response);

        assertEquals(200, response.statusCode());
        assertTrue(read.failed(), "the body is aborted: " + read.text());
        assertTrue(read.text().contains("The last event is message_stop"), "the partial answer was relayed");
        assertFalse(read.text().contains("event: message_stop"), "no terminal event: " + read.text());
        assertFalse(read.text().contains("event: error"), "a cut is relayed as a cut: " + read.text());
        assertLoggedAsTruncation(id);
    }

    @Test
    void aResponsesStreamCutMidWayEndsWithResponseFailedCarryingItsId() {
        long id = gw.account("codex", upstream, MAPS, "{" + NO_RETRY + "}");
        upstream.enqueue(Reply.sseThenCut(List.of(
                "{\"type\":\"response.created\",\"response\":{\"id\":\"resp_cut1\",\"object\":\"response\","
                        + "\"status\":\"in_progress\"}}",
                "{\"type\":\"response.output_text.delta\",\"delta\":\"after this, response.completed\"}")));

        Received response = gw.postReceiving("/v1/responses",
                "{\"model\":\"gpt-5.6-sol\",\"stream\":true,\"input\":\"hi\"}");
        Read read = read(response);

        assertTrue(read.failed(), "after response.failed the body is aborted too");
        assertTrue(read.text().contains("after this, response.completed"), read.text());
        String tail = read.text().substring(read.text().lastIndexOf("event: "));
        assertTrue(tail.startsWith("event: response.failed\ndata: "), tail);
        JsonNode failed = Gateway.read(tail.substring(tail.indexOf("data: ") + 6).trim());
        assertEquals("response.failed", failed.path("type").asText());
        assertEquals("resp_cut1", failed.path("response").path("id").asText());
        assertEquals("failed", failed.path("response").path("status").asText());
        assertEquals("server_error", failed.path("response").path("error").path("code").asText());
        assertLoggedAsTruncation(id);
    }

    @Test
    void aChatStreamCutMidWayIsAbortedWithoutDoneAndWithoutTheTerminatingChunk() throws IOException {
        long id = gw.account("a", upstream, MAPS, "{" + NO_RETRY + "}");
        upstream.enqueue(Reply.sse(Bodies.chatStream("whole", " answer")));
        String healthy = rawPost(gw.app.port(), gw.key(), "/v1/chat/completions", CHAT_BODY);
        assertTrue(healthy.endsWith("\r\n0\r\n\r\n"), "control: a completed stream ends with the zero chunk: "
                + healthy);

        upstream.enqueue(Reply.sseThenCut(List.of(Bodies.chatRoleChunk(),
                Bodies.chatChunk("text that says data: [DONE] and \"finish_reason\":\"stop\""))));
        String raw = rawPost(gw.app.port(), gw.key(), "/v1/chat/completions", CHAT_BODY);

        assertTrue(raw.startsWith("HTTP/1.1 200"), raw);
        assertTrue(raw.toLowerCase(java.util.Locale.ROOT).contains("transfer-encoding: chunked"), raw);
        assertTrue(raw.contains("text that says data: [DONE]"), "the partial answer was relayed: " + raw);
        assertFalse(raw.contains("\ndata: [DONE]"), "no [DONE] line: " + raw);
        assertFalse(raw.endsWith("0\r\n\r\n"), "no terminating chunk: " + raw);
        JsonNode event = gw.events(2).get(1);
        assertEquals("failure", event.path("outcome").asText());
        assertEquals("semantic_response_transient", event.path("attempts").get(0).path("failure_kind").asText());
        assertEquals(2, upstream.requestCount(), "bytes already with the client cannot be recalled: no failover");
        assertEquals(1, gw.accountState(id).path("models").size());
    }

    @Test
    void aChatStreamCutIsAnErrorForAnHttpClient() {
        long id = gw.account("a", upstream, MAPS, "{" + NO_RETRY + "}");
        upstream.enqueue(Reply.sseThenCut(List.of(Bodies.chatRoleChunk(), Bodies.chatChunk("partial"))));
        Read read = read(gw.postReceiving("/v1/chat/completions", CHAT_BODY));
        assertTrue(read.failed(), "the client's HTTP layer reports the broken body: " + read.text());
        assertLoggedAsTruncation(id);
    }

    @Test
    void aReadGapTimeoutAfterTheFirstFramesAbortsAMessagesStreamWithoutItsTerminalEvent() {
        assertEquals(1, gw.admin("PUT", "/settings", "{\"read_timeout_seconds\":1}").path("read_timeout_seconds")
                .asLong());
        long id = gw.account("claude", upstream, MAPS, "{\"platform\":\"anthropic\"," + NO_RETRY + "}");
        // the fake stalls after the third frame until it closes: Detour's 1 s read gap fires first
        upstream.enqueue(Reply.sse(plus(anthropicStart(), anthropicText("slow"), "{\"type\":\"message_stop\"}"))
                .withoutDone().holdAt(3));

        Read read = read(gw.postReceiving("/v1/messages", MESSAGES_BODY));

        assertTrue(read.text().contains("slow"), read.text());
        assertFalse(read.text().contains("message_stop"), read.text());
        assertTrue(read.failed(), "the body is aborted, as a cut (no Detour-made error frame): " + read.text());
        assertLoggedAsTruncation(id);
    }

    @Test
    void anInBandErrorEventAfterOutputIsRelayedMaskedAndEndsAsAFailure() {
        long id = gw.account("claude", upstream, MAPS, "{\"platform\":\"anthropic\",\"api_key\":\"" + PLAIN_KEY
                + "\"," + NO_RETRY + "}");
        upstream.enqueue(Reply.sseThenCut(plus(anthropicStart(), anthropicText("Hello"),
                "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":"
                        + "\"Overloaded; key " + PLAIN_KEY + " is busy\"}}")));

        Read read = read(gw.postReceiving("/v1/messages", MESSAGES_BODY));

        assertFalse(read.text().contains(PLAIN_KEY), read.text());
        assertTrue(read.text().contains("\"message\":\"Overloaded; key " + PLAIN_MASKED + " is busy\""), read.text());
        assertTrue(read.text().contains("Hello"));
        // the upstream's own error event (as Anthropic frames it) is the last thing relayed, then the abort
        assertTrue(read.text().trim().endsWith("}}") && read.text().contains("event: error"), read.text());
        assertTrue(read.failed(), read.text());
        assertLoggedAsTruncation(id);
    }

    @Test
    void anInBandErrorEventSplitAcrossUpstreamWritesIsMaskedWhole() {
        long id = gw.account("claude", upstream, MAPS, "{\"platform\":\"anthropic\",\"api_key\":\"" + PLAIN_KEY
                + "\"," + NO_RETRY + "}");
        String error = "event: error\r\ndata: {\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":"
                + "\"relay says: bad upstream key " + PLAIN_KEY + "\"}}\r\n\r\n";
        int inTheKey = error.indexOf(PLAIN_KEY) + 5;
        // real Anthropic framing (event: lines, CRLF); the error line arrives in two writes, cut inside the key
        upstream.enqueue(Reply.rawSseThenCut(List.of(
                "event: message_start\r\ndata: " + anthropicStart().get(0) + "\r\n\r\n",
                "event: content_block_delta\r\ndata: " + anthropicText("so far") + "\r\n\r\n",
                error.substring(0, inTheKey), error.substring(inTheKey))).frameDelay(java.time.Duration.ofMillis(20)));

        Read read = read(gw.postReceiving("/v1/messages", MESSAGES_BODY));

        assertTrue(read.text().contains("so far"), read.text());
        assertFalse(read.text().contains(PLAIN_KEY.substring(5)), read.text());
        assertTrue(read.text().contains("bad upstream key " + PLAIN_MASKED), read.text());
        assertLoggedAsTruncation(id);
    }

    @Test
    void anInBandChatErrorIsRelayedMaskedAndTheBodyAborted() throws IOException {
        gw.account("a", upstream, MAPS, "{\"api_key\":\"" + PLAIN_KEY + "\"," + NO_RETRY + "}");
        upstream.enqueue(Reply.sseThenCut(List.of(Bodies.chatRoleChunk(), Bodies.chatChunk("so far"),
                "{\"error\":{\"message\":\"relay says: bad upstream key " + PLAIN_KEY + "\",\"code\":\"server_error\"}}")));

        String raw = rawPost(gw.app.port(), gw.key(), "/v1/chat/completions", CHAT_BODY);

        assertFalse(raw.contains(PLAIN_KEY), raw);
        assertTrue(raw.contains("bad upstream key " + new String(PLAIN_MASKED.getBytes(StandardCharsets.UTF_8),
                StandardCharsets.ISO_8859_1)), raw);
        assertTrue(raw.contains("so far"), raw);
        assertFalse(raw.endsWith("0\r\n\r\n"), raw);
        assertEquals("failure", gw.events(1).get(0).path("outcome").asText());
    }
}
