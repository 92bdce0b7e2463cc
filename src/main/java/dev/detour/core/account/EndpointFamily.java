package dev.detour.core.account;

import dev.detour.core.ValidationException;

/** The client-facing endpoints of SPEC P-1, grouped by protocol family. */
public enum EndpointFamily {
    CHAT_COMPLETIONS("chat_completions", "/v1/chat/completions", Protocol.OPENAI),
    RESPONSES("responses", "/v1/responses", Protocol.OPENAI),
    COMPLETIONS("completions", "/v1/completions", Protocol.OPENAI),
    EMBEDDINGS("embeddings", "/v1/embeddings", Protocol.OPENAI),
    MESSAGES("messages", "/v1/messages", Protocol.ANTHROPIC),
    COUNT_TOKENS("count_tokens", "/v1/messages/count_tokens", Protocol.ANTHROPIC),
    MODELS("models", "/v1/models", Protocol.OPENAI);

    /** Which error envelope a client of this family understands (P-8). */
    public enum Protocol { OPENAI, ANTHROPIC }

    private final String wire;
    private final String path;
    private final Protocol protocol;

    EndpointFamily(String wire, String path, Protocol protocol) {
        this.wire = wire;
        this.path = path;
        this.protocol = protocol;
    }

    public String wire() {
        return wire;
    }

    public String path() {
        return path;
    }

    public Protocol protocol() {
        return protocol;
    }

    /** B-2: the conversation families, bridged among each other; embeddings, completions and the rest never are. */
    public boolean conversational() {
        return this == CHAT_COMPLETIONS || this == RESPONSES || this == MESSAGES;
    }

    /** The family for a client path such as {@code /v1/chat/completions}, or null when unknown. */
    public static EndpointFamily forPath(String path) {
        for (EndpointFamily f : values()) {
            if (f.path.equals(path)) {
                return f;
            }
        }
        return null;
    }

    /** The family of a wire name, or null when unknown. */
    public static EndpointFamily forWire(String value) {
        for (EndpointFamily f : values()) {
            if (f.wire.equals(value)) {
                return f;
            }
        }
        return null;
    }

    public static EndpointFamily fromWire(String value) {
        for (EndpointFamily f : values()) {
            if (f.wire.equals(value)) {
                return f;
            }
        }
        throw new ValidationException("validation.endpoint_family", "endpoint_families",
                "unknown endpoint family: " + value);
    }
}
