package dev.detour.core.account;

import dev.detour.core.ValidationException;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * Decides the auth header, the protocols an account may speak and the default endpoint families (SPEC §1).
 * B-1: every platform serves the three conversational endpoints by default — its own protocols natively,
 * the others through the bridge; the pass-through endpoints (completions, embeddings, count_tokens) only
 * where the platform speaks them.
 */
public enum Platform {
    OPENAI("openai", EnumSet.of(EndpointFamily.CHAT_COMPLETIONS, EndpointFamily.RESPONSES,
            EndpointFamily.COMPLETIONS, EndpointFamily.EMBEDDINGS, EndpointFamily.MODELS, EndpointFamily.MESSAGES),
            EnumSet.of(EndpointFamily.CHAT_COMPLETIONS, EndpointFamily.RESPONSES),
            EnumSet.of(EndpointFamily.CHAT_COMPLETIONS, EndpointFamily.RESPONSES)),
    ANTHROPIC("anthropic", EnumSet.of(EndpointFamily.MESSAGES, EndpointFamily.COUNT_TOKENS, EndpointFamily.MODELS,
            EndpointFamily.CHAT_COMPLETIONS, EndpointFamily.RESPONSES),
            EnumSet.of(EndpointFamily.MESSAGES), EnumSet.of(EndpointFamily.MESSAGES)),
    OPENAI_COMPATIBLE("openai-compatible", EnumSet.of(EndpointFamily.CHAT_COMPLETIONS, EndpointFamily.RESPONSES,
            EndpointFamily.COMPLETIONS, EndpointFamily.EMBEDDINGS, EndpointFamily.MODELS, EndpointFamily.MESSAGES),
            EnumSet.of(EndpointFamily.CHAT_COMPLETIONS, EndpointFamily.RESPONSES),
            EnumSet.of(EndpointFamily.CHAT_COMPLETIONS, EndpointFamily.RESPONSES, EndpointFamily.MESSAGES));

    private final String wire;
    private final Set<EndpointFamily> defaultFamilies;
    private final Set<EndpointFamily> defaultProtocols;
    private final Set<EndpointFamily> speakable;

    Platform(String wire, Set<EndpointFamily> defaultFamilies, Set<EndpointFamily> defaultProtocols,
            Set<EndpointFamily> speakable) {
        this.wire = wire;
        this.defaultFamilies = Collections.unmodifiableSet(defaultFamilies);
        this.defaultProtocols = Collections.unmodifiableSet(defaultProtocols);
        this.speakable = Collections.unmodifiableSet(speakable);
    }

    /** B-1: the client protocols an account of this platform serves natively unless it says otherwise. */
    public Set<EndpointFamily> defaultProtocols() {
        return defaultProtocols;
    }

    /**
     * B-1: whether an account of this platform may declare {@code protocol} native: OpenAI speaks Chat and
     * Responses, Anthropic Messages (its auth is {@code x-api-key}); a compatible relay may speak any of them.
     */
    public boolean speaks(EndpointFamily protocol) {
        return speakable.contains(protocol);
    }

    public String wire() {
        return wire;
    }

    /** Read-only, and the same set every call: selection asks for it per account per request (N-10). */
    public Set<EndpointFamily> defaultFamilies() {
        return defaultFamilies;
    }

    /** Families an account of this platform may be configured to serve. */
    public boolean canServe(EndpointFamily family) {
        return this == OPENAI_COMPATIBLE || defaultFamilies.contains(family);
    }

    public static Platform fromWire(String value) {
        for (Platform p : values()) {
            if (p.wire.equals(value)) {
                return p;
            }
        }
        throw new ValidationException("validation.platform", "platform",
                "platform must be one of openai, anthropic, openai-compatible");
    }
}
