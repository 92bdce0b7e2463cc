package dev.detour.admin.port;

import java.time.Duration;

/** how long a sign-in from an address (and name) with recent failures has to wait. */
public interface SignInThrottle {
    /** Zero when the try may go ahead. */
    Duration waitFor(String address, String name);

    void failed(String address, String name);

    void succeeded(String address, String name);
}
