package dev.detour.server;

import jakarta.servlet.http.HttpSessionListener;
import java.time.Duration;

/**
 * what the server applies to each client connection before a request is admitted.
 *
 * @param requestTimeout           how long a client may stay silent while its headers or body arrive,
 *                                 and between requests on a kept-alive connection
 * @param minRequestBytesPerSecond a body slower than this on average is answered 408 and cut off (0 = none)
 * @param connections              the per-address connection cap, or null for none
 * @param sessionListener          told when console sessions end (the anonymous session count), or null
 */
public record ClientGuards(Duration requestTimeout, long minRequestBytesPerSecond, ConnectionCap connections,
        HttpSessionListener sessionListener) {

    /** Timeouts only: no connection cap, no session listener. */
    public static ClientGuards timeoutsOnly(Duration requestTimeout, long minRequestBytesPerSecond) {
        return new ClientGuards(requestTimeout, minRequestBytesPerSecond, null, null);
    }
}
