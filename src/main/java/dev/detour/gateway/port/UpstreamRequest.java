package dev.detour.gateway.port;

import java.util.List;

/**
 * One attempt as sent upstream: absolute URL, headers already chosen by the proxy (P-2
 * allowlist + injected auth), body bytes replayed verbatim; {@code body} is null for no body.
 *
 * @param replayable false for a P-10 side-effecting request: the client never sends it twice, not even
 *                   on a fresh connection after a reused one closed under it
 */
public record UpstreamRequest(String method, String url, List<Header> headers, byte[] body, boolean replayable) {
    public UpstreamRequest(String method, String url, List<Header> headers, byte[] body) {
        this(method, url, headers, body, true);
    }
}
