package dev.detour.gateway;

import java.util.List;

/**
 * One attempt as sent upstream: absolute URL, headers already chosen by the proxy (P-2
 * allowlist + injected auth), body bytes replayed verbatim; {@code body} is null for no body.
 */
public record UpstreamRequest(String method, String url, List<Header> headers, byte[] body) {
}
