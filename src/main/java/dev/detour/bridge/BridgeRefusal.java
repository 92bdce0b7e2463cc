package dev.detour.bridge;

import dev.detour.core.account.EndpointFamily;

/**
 * B-2: the request uses a feature the other protocol cannot carry, so it is refused before dispatch (HTTP
 * 400) instead of being sent without it. {@code code} is stable: {@code bridge.unsupported.<feature>};
 * docs/api.md lists them all.
 */
public final class BridgeRefusal extends Exception {
    public static final int STATUS = 400;

    private final String code;

    BridgeRefusal(String feature, String message) {
        super(message);
        this.code = "bridge.unsupported." + feature;
    }

    /** A feature the client's own protocol has and none of the others do. */
    static BridgeRefusal onlyIn(EndpointFamily client, String feature, String what) {
        return new BridgeRefusal(feature, what + " exists only in " + name(client)
                + " and cannot be bridged to another protocol");
    }

    /** B-3: a body the bridge cannot read as a request of the client's protocol (not a JSON object of its shape). */
    public static BridgeRefusal unreadable() {
        return new BridgeRefusal("body", "The request body is not a JSON object of the client's protocol, so it"
                + " cannot be translated for an account that speaks another protocol");
    }

    /** A feature the upstream's protocol cannot carry. */
    static BridgeRefusal notIn(EndpointFamily upstream, String feature, String what) {
        return new BridgeRefusal(feature, what + " cannot be carried to an account that speaks " + name(upstream));
    }

    public String code() {
        return code;
    }

    static String name(EndpointFamily protocol) {
        return switch (protocol) {
            case MESSAGES -> "Anthropic Messages";
            case RESPONSES -> "OpenAI Responses";
            default -> "OpenAI Chat Completions";
        };
    }
}
