package dev.detour.gateway.wire;

import dev.detour.core.account.EndpointFamily;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.NonBlockingClient;
import dev.detour.gateway.port.ResponseSink;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * P-10: the id of a Responses-API answer — the top-level {@code id} of a buffered
 * {@code /v1/responses} answer, or for a stream the {@code response.id} in its
 * {@code response.created} (or {@code response.completed}) event.
 */
public final class ResponseIds {
    private static final Pattern STREAMED = Pattern.compile("\"response\"\\s*:\\s*\\{\\s*\"id\"\\s*:\\s*\"([^\"]{1,191})\"");
    private static final int SNIFF_LIMIT = 64 * 1024;

    private ResponseIds() {
    }

    /** The top-level {@code id} of a buffered Responses answer; null for other families or without one. */
    public static String of(EndpointFamily family, AnswerFacts answer) {
        return family == EndpointFamily.RESPONSES ? answer.responseId() : null;
    }

    /** The id inside a streamed {@code response.*} event, or null. */
    public static String fromStreamText(String text) {
        Matcher m = STREAMED.matcher(text);
        return m.find() ? m.group(1) : null;
    }

    /** Passes a stream through unchanged while keeping its first 64 KiB to find the response id. */
    public static final class Sniffer implements ResponseSink {
        private final ResponseSink sink;
        private final boolean active;
        private final ByteArrayOutputStream seen = new ByteArrayOutputStream();
        private String responseId;

        public Sniffer(ResponseSink sink, EndpointFamily family) {
            this.sink = sink;
            this.active = family == EndpointFamily.RESPONSES;
        }

        public String responseId() {
            return responseId;
        }

        @Override
        public void begin(int status, List<Header> headers) {
            sink.begin(status, headers);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws ClientGoneException {
            sink.write(bytes, offset, length);
            if (active && responseId == null && seen.size() < SNIFF_LIMIT) {
                seen.write(bytes, offset, Math.min(length, SNIFF_LIMIT - seen.size()));
                responseId = fromStreamText(seen.toString(StandardCharsets.UTF_8));
            }
        }

        @Override
        public void flush() throws ClientGoneException {
            sink.flush();
        }

        @Override
        public void abort() {
            sink.abort();
        }

        @Override
        public boolean committed() {
            return sink.committed();
        }

        @Override
        public NonBlockingClient nonBlocking() {
            return sink.nonBlocking();
        }
    }
}
