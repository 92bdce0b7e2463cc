package dev.detour.gateway;

import dev.detour.core.account.EndpointFamily;
import java.nio.charset.StandardCharsets;

/**
 * F-4': how a stream that broke upstream after bytes reached the client ends on the client's side,
 * in the failure form its protocol (and so every official SDK) understands: Anthropic Messages an
 * {@code event: error} frame, Responses a {@code response.failed} event, Chat / Completions no frame
 * ({@link #frame} null, so no {@code [DONE]}); then the chunked body is aborted in every case.
 */
final class BrokenStreamEnding {
    /** The stable code in the Detour-made frames; the event's error_code stays {@code stream.truncated}. */
    static final String CODE = "stream.truncated";

    private BrokenStreamEnding() {
    }

    /**
     * The closing failure frame for this family, or null when the connection must be aborted instead.
     *
     * @param responseId the Responses stream's own id when it was seen, else null (no made-up id: P-10
     *                   binds ids to accounts)
     */
    static byte[] frame(EndpointFamily family, String requestId, String responseId) {
        String message = ErrorEnvelope.escape("the upstream stream ended before completion; request " + requestId);
        String sse;
        if (family == EndpointFamily.MESSAGES) {
            sse = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"code\":\"" + CODE
                    + "\",\"message\":\"" + message + "\"}}\n\n";
        } else if (family == EndpointFamily.RESPONSES) {
            String id = responseId == null ? "" : "\"id\":\"" + ErrorEnvelope.escape(responseId) + "\",";
            sse = "event: response.failed\ndata: {\"type\":\"response.failed\",\"response\":{" + id
                    + "\"object\":\"response\",\"status\":\"failed\",\"error\":{\"code\":\"server_error\","
                    + "\"message\":\"" + message + "\"},\"incomplete_details\":null}}\n\n";
        } else {
            return null;
        }
        return sse.getBytes(StandardCharsets.UTF_8);
    }
}
