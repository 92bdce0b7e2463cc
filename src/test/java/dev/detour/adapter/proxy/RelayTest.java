package dev.detour.adapter.proxy;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The relay answers the paths the servlet mapping {@code /v1/*} gave it, and leaves {@code /v1/detour/*} alone. */
class RelayTest {
    @Test
    void relaysV1AndEverythingUnderIt() {
        for (String path : new String[] {"/v1", "/v1/", "/v1/chat/completions", "/v1/messages", "/v1/responses",
                "/v1/models", "/v1/models/org/name", "/v1/nothing-here", "/v1/detourx", "/v1/detours/x"}) {
            assertTrue(Relay.relays(path), path);
        }
    }

    @Test
    void declinesTheKeyHoldersApiAndEveryOtherPath() {
        for (String path : new String[] {"/v1/detour", "/v1/detour/", "/v1/detour/route", "/v1x", "/v1detour",
                "/v2/chat/completions", "/", "", "/status", "/my/route", "/V1/chat/completions"}) {
            assertFalse(Relay.relays(path), path);
        }
        assertFalse(Relay.relays(null));
    }
}
