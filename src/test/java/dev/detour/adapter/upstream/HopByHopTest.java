package dev.detour.adapter.upstream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** P-2: hop-by-hop header names, whatever their case; any proxy-* name counts too. */
class HopByHopTest {
    @Test
    void everyListedNameAndAnyProxyNameIsHopByHopInAnyCase() {
        for (String name : HttpClient5UpstreamClient.HOP_BY_HOP) {
            assertTrue(HttpClient5UpstreamClient.isHopByHop(name), name);
            assertTrue(HttpClient5UpstreamClient.isHopByHop(name.toUpperCase()), name);
        }
        assertTrue(HttpClient5UpstreamClient.isHopByHop("Transfer-Encoding"));
        assertTrue(HttpClient5UpstreamClient.isHopByHop("Proxy-Foo"));
        assertTrue(HttpClient5UpstreamClient.isHopByHop("PROXY-"));
    }

    @Test
    void endToEndNamesAreNot() {
        for (String name : new String[] {"content-type", "Content-Length", "x-request-id", "proxy", "proxies",
                "x-proxy-id", "te-x", "keep-alive-x", "", "upgrades"}) {
            assertFalse(HttpClient5UpstreamClient.isHopByHop(name), name);
        }
    }
}
