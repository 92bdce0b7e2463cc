package dev.detour.core.account;

import dev.detour.core.ValidationException;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/** Decides the upstream protocol, the auth header and the default endpoint families (SPEC §1). */
public enum Platform {
    OPENAI("openai", EnumSet.of(EndpointFamily.CHAT_COMPLETIONS, EndpointFamily.RESPONSES,
            EndpointFamily.COMPLETIONS, EndpointFamily.EMBEDDINGS, EndpointFamily.MODELS)),
    ANTHROPIC("anthropic", EnumSet.of(EndpointFamily.MESSAGES, EndpointFamily.COUNT_TOKENS, EndpointFamily.MODELS)),
    OPENAI_COMPATIBLE("openai-compatible", EnumSet.of(EndpointFamily.CHAT_COMPLETIONS, EndpointFamily.RESPONSES,
            EndpointFamily.COMPLETIONS, EndpointFamily.EMBEDDINGS, EndpointFamily.MODELS));

    private final String wire;
    private final Set<EndpointFamily> defaultFamilies;

    Platform(String wire, Set<EndpointFamily> defaultFamilies) {
        this.wire = wire;
        this.defaultFamilies = Collections.unmodifiableSet(defaultFamilies);
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
