package dev.detour.bridge;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.usage.TokenUsage;

/**
 * B-2: one streamed answer translated from the upstream's protocol into the client's, frame by frame. Fed
 * the upstream's bytes as they arrive, in any cut (mid-line, mid-UTF-8), {@link #feed} returns the client
 * bytes to write now: every event the read completed, translated — nothing waits for the answer's end, so
 * the client's time to first token is the upstream's. The client's terminal events are written once, when
 * the upstream ends cleanly (its own terminal frame, or its body's end after it said it finished); repeats
 * and trailing frames write nothing.
 *
 * <p>For the gateway: after the upstream body ended, call {@link #finish} and write what it returns; if the
 * stream broke (cut, read failure, no terminal), call {@link #finishBroken} instead — it writes nothing
 * that looks like a successful end — then end the client stream the broken way (F-4'), unless
 * {@link #endWritten} says the client already got its protocol's end or error event (an upstream error
 * event was translated), in which case the gateway's own failure frame would be a second one.
 * {@link #responseId} is the client-facing Responses id for that frame. X-5: a translated error event carries
 * the upstream's message, so the gateway masks the bytes of the feed in which {@link #upstreamFailed} turned
 * true, as it masks every relayed error. Not thread-safe: one per stream.
 */
public final class StreamBridge {
    /**
     * @param includeUsage the Chat client asked for {@code stream_options.include_usage}
     * @param createdAt    unix seconds for the client's {@code created} / {@code created_at} fields
     * @param tools        the names the client's tools went up under ({@link Bridge.Translation#tools})
     */
    public record Options(boolean includeUsage, long createdAt, ToolNames tools) {
        public Options(boolean includeUsage, long createdAt) {
            this(includeUsage, createdAt, ToolNames.NONE);
        }
    }

    private final SseStreamDecoder decoder = new SseStreamDecoder();
    private final StreamReader reader;
    private final StreamWriter writer;
    private final SseStreamDecoder.Listener listener = new SseStreamDecoder.Listener() {
        @Override
        public void event(String name, String data) {
            translate(name, data);
        }

        @Override
        public void comment() {
            writer.keepAlive();
        }
    };
    private int unreadable;
    private boolean broken;

    private StreamBridge(StreamReader reader, StreamWriter writer) {
        this.reader = reader;
        this.writer = writer;
    }

    /** A translator for one stream; upstream and client are two different protocols of the three. */
    public static StreamBridge between(EndpointFamily upstream, EndpointFamily client, Options options) {
        if (upstream == client) {
            throw new IllegalArgumentException("a stream in its own protocol is relayed, not bridged: " + client);
        }
        StreamReader reader = switch (upstream) {
            case CHAT_COMPLETIONS -> new ChatStreamReader();
            case RESPONSES -> new ResponsesStreamReader();
            case MESSAGES -> new MessagesStreamReader();
            default -> throw new IllegalArgumentException("no stream bridge from " + upstream);
        };
        StreamWriter writer = switch (client) {
            case CHAT_COMPLETIONS -> new ChatStreamWriter(upstream, options.createdAt(), options.includeUsage());
            case RESPONSES -> new ResponsesStreamWriter(upstream, options.createdAt(), options.tools());
            case MESSAGES -> new MessagesStreamWriter(upstream, options.createdAt());
            default -> throw new IllegalArgumentException("no stream bridge to " + client);
        };
        return new StreamBridge(reader, writer);
    }

    /** The client bytes for these upstream bytes (possibly none: a frame not yet complete). */
    public byte[] feed(byte[] bytes, int offset, int length) {
        if (broken) {
            return new byte[0];
        }
        decoder.feed(bytes, offset, length, listener);
        return writer.take();
    }

    public byte[] feed(byte[] bytes) {
        return feed(bytes, 0, bytes.length);
    }

    /** The upstream body ended: a last unterminated frame is read, and the terminal written if it ended cleanly. */
    public byte[] finish() {
        if (broken) {
            return new byte[0];
        }
        decoder.finish(listener);
        if (reader.endPending()) {
            writer.end();
        }
        return writer.take();
    }

    /** The stream broke: nothing more is written for it (no terminal that would read as a success), ever. */
    public byte[] finishBroken() {
        broken = true;
        writer.take();
        return new byte[0];
    }

    /** The client got its protocol's terminal events: the answer ended cleanly. */
    public boolean completed() {
        return writer.ended();
    }

    /** The client got its protocol's end or error event; nothing more may follow it. */
    public boolean endWritten() {
        return writer.ended() || writer.failed();
    }

    /** The upstream sent an error event (translated for the client). */
    public boolean upstreamFailed() {
        return writer.failed();
    }

    /** Usage the upstream reported so far, normalised (B-4); NONE when it sent none. */
    public TokenUsage usage() {
        return writer.usage();
    }

    /** P-7': some upstream frame carried usage. */
    public boolean usageSeen() {
        return writer.usageSeen();
    }

    /** The Responses id the client saw, for a Responses client once the stream started; else null. */
    public String responseId() {
        return writer instanceof ResponsesStreamWriter responses ? responses.responseId() : null;
    }

    /** Upstream events whose data was not JSON (skipped, never relayed raw into another protocol). */
    public int unreadableFrames() {
        return unreadable;
    }

    private void translate(String name, String data) {
        String trimmed = data.trim();
        if (trimmed.isEmpty()) {
            return;
        }
        if (trimmed.equals("[DONE]")) {
            reader.done(writer);
            return;
        }
        JsonNode node;
        try {
            node = StreamWriter.JSON.readTree(trimmed);
        } catch (JsonProcessingException e) {
            unreadable++;
            return;
        }
        if (node.isObject()) {
            reader.read(name, node, writer);
        } else {
            unreadable++;
        }
    }
}
