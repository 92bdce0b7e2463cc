package dev.detour.bridge;

import dev.detour.core.account.EndpointFamily;

/**
 * B-2: reasoning Detour moved from one protocol into another keeps the seal of the protocol that made it
 * (see {@link Part.Seal}), wrapped so that it is recognisable on its way back:
 * {@code detour-bridged:<origin>:<value>}, where origin is {@code messages}, {@code messages_redacted},
 * {@code responses} or {@code chat_completions}. It sits in the field the client's protocol has for such
 * proof: a Messages client sees it as a thinking block's {@code signature}, a Responses client as a
 * reasoning item's {@code encrypted_content}.
 *
 * <p>Why a readable prefix: an Anthropic signature and an OpenAI {@code encrypted_content} are base64
 * and never contain {@code :}, so a wrapped seal cannot be mistaken for a native one. When a client sends
 * such a block back, the reader unwraps it to its origin; a writer sends reasoning only to its origin
 * protocol and leaves it out everywhere else, so a thinking block Detour made from OpenAI reasoning is
 * never presented to a native Anthropic account as if Anthropic had signed it (Anthropic may drop
 * thinking of earlier turns; it would reject a forged signature).
 */
final class BridgedReasoning {
    private static final String PREFIX = "detour-bridged:";
    private static final String REDACTED = "messages_redacted";

    private BridgedReasoning() {
    }

    static boolean isBridged(String carried) {
        return carried.startsWith(PREFIX);
    }

    static String wrap(Part.Seal seal) {
        String origin = seal.redacted() ? REDACTED : seal.origin().wire();
        return PREFIX + origin + ":" + seal.value();
    }

    /** The seal a client sent back in {@code protocol}'s field: unwrapped when Detour wrapped it, else native. */
    static Part.Seal read(EndpointFamily protocol, String carried, boolean redacted) {
        if (carried == null) {
            return null;
        }
        if (!carried.startsWith(PREFIX)) {
            return new Part.Seal(protocol, carried, redacted);
        }
        String rest = carried.substring(PREFIX.length());
        int colon = rest.indexOf(':');
        if (colon < 0) {
            return null;
        }
        String origin = rest.substring(0, colon);
        String value = rest.substring(colon + 1);
        if (origin.equals(REDACTED)) {
            return new Part.Seal(EndpointFamily.MESSAGES, value, true);
        }
        try {
            return new Part.Seal(EndpointFamily.fromWire(origin), value, false);
        } catch (RuntimeException unknownOrigin) {
            return null; // not a seal Detour made: nothing can verify it
        }
    }

    /**
     * The seal in the field of the client's {@code protocol}: as it is when that protocol made it, else
     * wrapped. Reasoning nothing can verify (Chat's {@code reasoning_content}, a Responses item without
     * {@code encrypted_content}) gets {@code detour-bridged:none:}, which reads back as no seal.
     */
    static String carry(EndpointFamily protocol, Part.Seal seal) {
        if (seal == null) {
            return PREFIX + "none:";
        }
        return seal.origin() == protocol ? seal.value() : wrap(seal);
    }
}
