package dev.detour.bridge;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.usage.TokenUsage;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * B-2: the neutral middle of a stream bridge. A reader of the upstream's protocol calls these steps; a
 * subclass writes them as the client's protocol into a buffer that {@link #take} empties after every feed,
 * so a delta read is a delta written in the same call. One content block is open at a time (Messages
 * streams its blocks one after another and Chat or Responses fit that shape); the guards here keep every
 * client stream well formed whatever the upstream sends: a block left open is closed before the next, a
 * step after the end or after an error is ignored (upstreams that repeat their terminal or send trailing
 * frames), so the client's terminal event is written at most once.
 */
abstract class StreamWriter {
    /** What a content block carries; a refusal is text the model declined with. */
    enum Kind { TEXT, TOOL_CALL, THINKING, REFUSAL }

    /** Characters beyond the BMP (emoji) leave as UTF-8, not as escaped surrogate pairs: shorter, same JSON. */
    static final ObjectMapper JSON = JsonMapper.builder().enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .build();
    private static final byte[] NOTHING = new byte[0];

    /** The upstream's protocol: a thinking signature from it is marked as made by Detour. */
    protected final EndpointFamily upstream;
    /** Unix seconds the client sees as the answer's creation time (the gateway's clock, passed in). */
    protected final long createdAt;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
    private boolean started;
    private Kind open;
    private boolean ended;
    private boolean failed;
    private boolean usageSeen;
    private Part.Seal proof;
    private TokenUsage usage = TokenUsage.NONE;
    private StopReason reason = StopReason.END;
    private String stopSequence;

    protected StreamWriter(EndpointFamily upstream, long createdAt) {
        this.upstream = upstream;
        this.createdAt = createdAt;
    }

    final void start(String upstreamId, String model, TokenUsage initial) {
        if (started || over()) {
            return;
        }
        started = true;
        usage(initial);
        onStart(upstreamId == null ? "" : upstreamId, model == null ? "" : model);
    }

    final void blockStart(Kind kind, String callId, String name) {
        if (over()) {
            return;
        }
        start(null, null, TokenUsage.NONE);
        blockStop();
        open = kind;
        proof = null;
        onBlockStart(kind, callId == null ? "" : callId, name == null ? "" : name);
    }

    final void delta(String text) {
        if (open != null && !over() && text != null && !text.isEmpty()) {
            onDelta(open, text);
        }
    }

    /**
     * The upstream's opaque proof of the open thinking block: an Anthropic signature, the {@code data} of a
     * {@code redacted_thinking} block ({@code redacted}), or a Responses reasoning item's
     * {@code <item id>:<encrypted_content>}.
     */
    final void signature(String opaque, boolean redacted) {
        if (open == Kind.THINKING && !over() && opaque != null && !opaque.isEmpty()) {
            proof = new Part.Seal(redacted ? EndpointFamily.MESSAGES : upstream, opaque, redacted);
        }
    }

    final void blockStop() {
        if (open != null && !over()) {
            Kind kind = open;
            open = null;
            onBlockStop(kind);
        }
    }

    /** Streams report usage piecemeal: the largest of each count wins. */
    final void usage(TokenUsage seen) {
        if (seen != null && !seen.equals(TokenUsage.NONE)) {
            usage = usage.merge(seen);
            usageSeen = true;
        }
    }

    final void stop(StopReason stopReason, String sequence) {
        if (!over()) {
            reason = stopReason == null ? StopReason.END : stopReason;
            stopSequence = sequence;
        }
    }

    /** The upstream ended cleanly: the client's terminal events, once. */
    final void end() {
        if (over()) {
            return;
        }
        start(null, null, TokenUsage.NONE);
        blockStop();
        ended = true;
        onEnd(reason, stopSequence, usage);
    }

    /**
     * The upstream said it is still there (an SSE comment, an Anthropic {@code ping}): the client hears the same in
     * its protocol, so a proxy's idle timeout in front does not cut a long pause (a model thinking). Only once the
     * answer started: before it, bytes to the client would commit the request to this upstream.
     */
    final void keepAlive() {
        if (started && !over()) {
            onKeepAlive();
        }
    }

    /** The upstream sent an error event: the client protocol's error event, once, and nothing after it. */
    final void error(String type, String message) {
        if (over()) {
            return;
        }
        failed = true;
        onError(type == null || type.isBlank() ? "api_error" : type, message == null ? "" : message);
    }

    /** The kind of the open block, null between blocks. */
    final Kind open() {
        return open;
    }

    final boolean ended() {
        return ended;
    }

    final boolean failed() {
        return failed;
    }

    final TokenUsage usage() {
        return usage;
    }

    final boolean usageSeen() {
        return usageSeen;
    }

    /** The client-protocol bytes written since the last take. */
    final byte[] take() {
        if (out.size() == 0) {
            return NOTHING;
        }
        byte[] bytes = out.toByteArray();
        out.reset();
        return bytes;
    }

    private boolean over() {
        return ended || failed;
    }

    protected abstract void onStart(String upstreamId, String model);

    protected abstract void onBlockStart(Kind kind, String callId, String name);

    protected abstract void onDelta(Kind kind, String text);

    protected abstract void onBlockStop(Kind kind);

    protected abstract void onEnd(StopReason reason, String stopSequence, TokenUsage usage);

    protected abstract void onError(String type, String message);

    /**
     * The open thinking block's proof as the client gets it: {@code detour-bridged:<origin>:<value>}, origin
     * being the upstream's protocol ({@code messages_redacted} for a redacted block, {@code none} when the
     * upstream gave no proof, as Chat never does) — the seal form BridgedReasoning reads back. Genuine
     * Anthropic signatures and OpenAI encrypted contents are base64, which has no ':', so a sealed block is
     * never taken for one: it is never sent to a native Anthropic account as if Anthropic had signed it, and
     * going back to its origin protocol the value inside is restored unchanged.
     */
    protected final String sealedProof() {
        return proof == null ? BridgedReasoning.carry(EndpointFamily.MESSAGES, null) : BridgedReasoning.wrap(proof);
    }

    /** An SSE comment, which every OpenAI client skips; the Messages writer sends Anthropic's {@code ping}. */
    protected void onKeepAlive() {
        write(": keep-alive\n\n");
    }

    /** One SSE event with a name (Messages, Responses). */
    protected final void event(String name, ObjectNode data) {
        write("event: " + name + "\ndata: ");
        json(data);
        write("\n\n");
    }

    /** One SSE event without a name (Chat Completions). */
    protected final void data(ObjectNode data) {
        write("data: ");
        json(data);
        write("\n\n");
    }

    protected final void write(String text) {
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }

    private void json(ObjectNode node) {
        try {
            out.writeBytes(JSON.writeValueAsBytes(node));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
    }
}
