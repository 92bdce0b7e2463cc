package dev.detour.gateway.port;

import dev.detour.core.account.EndpointFamily;
import java.time.Instant;
import java.util.List;

/**
 * One client request as the Forwarder sees it: no servlet types. The body is read once and
 * replayed to every attempt with only the model rewritten (P-2).
 */
public record ClientCall(
        String requestId,
        EndpointFamily family,
        String method,
        String pathAndQuery,
        List<Header> headers,
        byte[] body,
        RequestPeek peek,
        KeyEntry key,
        String clientIp,
        Instant receivedAt,
        long receivedNanos) {

    public String header(String name) {
        for (Header h : headers) {
            if (h.name().equalsIgnoreCase(name)) {
                return h.value();
            }
        }
        return null;
    }
}
