package dev.detour.gateway.wire;

import dev.detour.gateway.port.RequestPeek;
import java.nio.charset.StandardCharsets;

/** Replays the client's body verbatim except the model value, rewritten to the mapping's {@code to} (P-2). */
public final class BodyRewriter {
    private BodyRewriter() {
    }

    public static byte[] withModel(byte[] body, RequestPeek peek, String upstreamModel) {
        if (peek.modelStart() < 0 || upstreamModel.equals(peek.model())) {
            return body;
        }
        byte[] value = ("\"" + DetourErrorBody.escape(upstreamModel) + "\"").getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[body.length - (peek.modelEnd() - peek.modelStart()) + value.length];
        System.arraycopy(body, 0, out, 0, peek.modelStart());
        System.arraycopy(value, 0, out, peek.modelStart(), value.length);
        System.arraycopy(body, peek.modelEnd(), out, peek.modelStart() + value.length, body.length - peek.modelEnd());
        return out;
    }
}
