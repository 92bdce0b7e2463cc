package dev.detour.config;

import java.time.Duration;

/**
 * X-4 limits on what one client can hold: how long it may stay silent while sending a request, the
 * slowest body it may trickle, how many connections one address may keep open, how many anonymous
 * console sessions the server keeps, and how many bytes of request bodies may sit in memory at once.
 *
 * @param requestTimeout          silence allowed while headers or a body arrive, and between requests
 * @param minRequestBytesPerSecond a body slower than this on average is cut off (0 = no minimum)
 * @param maxConnectionsPerAddress open connections per client peer address (trusted proxies exempt)
 * @param maxAnonymousSessions    console sessions opened for the sign-in form, before sign-in
 * @param bodyBudgetBytes         request body bytes buffered across all requests at once
 */
public record ClientLimits(Duration requestTimeout, int minRequestBytesPerSecond, int maxConnectionsPerAddress,
        int maxAnonymousSessions, long bodyBudgetBytes) {

    public static final ClientLimits DEFAULTS = new ClientLimits(Duration.ofSeconds(30), 1024, 256, 10_000,
            256L * 1024 * 1024);

    public ClientLimits withRequestTimeout(Duration timeout, int minBytesPerSecond) {
        return new ClientLimits(timeout, minBytesPerSecond, maxConnectionsPerAddress, maxAnonymousSessions,
                bodyBudgetBytes);
    }

    public ClientLimits withMaxConnectionsPerAddress(int max) {
        return new ClientLimits(requestTimeout, minRequestBytesPerSecond, max, maxAnonymousSessions, bodyBudgetBytes);
    }

    public ClientLimits withMaxAnonymousSessions(int max) {
        return new ClientLimits(requestTimeout, minRequestBytesPerSecond, maxConnectionsPerAddress, max,
                bodyBudgetBytes);
    }

    public ClientLimits withBodyBudgetBytes(long bytes) {
        return new ClientLimits(requestTimeout, minRequestBytesPerSecond, maxConnectionsPerAddress,
                maxAnonymousSessions, bytes);
    }
}
