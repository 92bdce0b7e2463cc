package dev.detour.bridge;

import dev.detour.core.account.EndpointFamily;

/**
 * B-2: the mark on a thinking signature (Messages) or reasoning {@code encrypted_content} (Responses) that
 * Detour wrote for reasoning another protocol produced. Format: {@code detour-bridged:<origin wire>:<opaque>}
 * where origin is the protocol the reasoning came from and opaque is that protocol's own proof (an
 * Anthropic signature, an OpenAI encrypted_content), empty when it had none (Chat). Genuine Anthropic
 * signatures and OpenAI encrypted contents are base64, which has no ':' — so a marked value can never be
 * taken for one, a marked thinking block is never sent to a native Anthropic account as if Anthropic had
 * signed it, and going back to the origin protocol the opaque part is restored unchanged.
 */
public final class BridgedSignature {
    static final String PREFIX = "detour-bridged:";

    private BridgedSignature() {
    }

    public static String mark(EndpointFamily origin, String opaque) {
        return PREFIX + origin.wire() + ":" + (opaque == null ? "" : opaque);
    }

    public static boolean isMarked(String signature) {
        return signature != null && signature.startsWith(PREFIX);
    }

    /** The protocol a marked value's reasoning came from, or null when it is not marked. */
    public static EndpointFamily origin(String signature) {
        if (!isMarked(signature)) {
            return null;
        }
        int colon = signature.indexOf(':', PREFIX.length());
        return colon < 0 ? null : EndpointFamily.fromWire(signature.substring(PREFIX.length(), colon));
    }

    /** The origin protocol's own proof inside a marked value ("" when it had none); an unmarked value as is. */
    public static String opaque(String signature) {
        if (!isMarked(signature)) {
            return signature;
        }
        int colon = signature.indexOf(':', PREFIX.length());
        return colon < 0 ? "" : signature.substring(colon + 1);
    }
}
