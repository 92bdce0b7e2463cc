package dev.detour.gateway.wire;

import dev.detour.core.account.EndpointFamily;
import java.nio.charset.StandardCharsets;

/**
 * F-4': how a stream that broke upstream after bytes reached the client ends on the client's side, in
 * the failure form its client knows: Responses a {@code response.failed} event (Codex retries the turn
 * as it does on a cut); Messages, Chat and Completions no frame ({@link #frame} null); then the chunked
 * body is aborted in every case. Messages gets no {@code event: error} because the Anthropic SDK turns
 * that frame into an {@code APIError}, while the same cut straight from the upstream raises
 * {@code TypeError: terminated}: relaying a cut as a cut is what keeps every SDK's behaviour the same
 * through Detour (measured in NodeSdkIT; Claude Code falls back to a non-streaming request either way).
 */
public final class BrokenStreamEnding {
    /** The stable code in the Detour-made frames; the event's error_code stays {@code stream.truncated}. */
    public static final String CODE = "stream.truncated";

    private BrokenStreamEnding() {
    }

    /**
     * The closing failure frame for this family, or null when the connection must be aborted instead.
     *
     * @param responseId the Responses stream's own id when it was seen, else null (no made-up id: P-10
     *                   binds ids to accounts)
     */
    public static byte[] frame(EndpointFamily family, String requestId, String responseId) {
        if (family != EndpointFamily.RESPONSES) {
            return null;
        }
        String message = DetourErrorBody.escape("the upstream stream ended before completion; request " + requestId);
        String id = responseId == null ? "" : "\"id\":\"" + DetourErrorBody.escape(responseId) + "\",";
        String sse = "event: response.failed\ndata: {\"type\":\"response.failed\",\"response\":{" + id
                + "\"object\":\"response\",\"status\":\"failed\",\"error\":{\"code\":\"server_error\","
                + "\"message\":\"" + message + "\"},\"incomplete_details\":null}}\n\n";
        return sse.getBytes(StandardCharsets.UTF_8);
    }
}
