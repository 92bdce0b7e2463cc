package dev.detour.adapter.upstream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.gateway.wire.HeaderPolicy;
import org.junit.jupiter.api.Test;

/** P-2: hop-by-hop header names, whatever their case; any proxy-* name counts too. */
class HopByHopTest {
    @Test
    void everyListedNameAndAnyProxyNameIsHopByHopInAnyCase() {
        for (String name : HeaderPolicy.HOP_BY_HOP) {
            assertTrue(HeaderPolicy.isHopByHop(name), name);
            assertTrue(HeaderPolicy.isHopByHop(name.toUpperCase()), name);
        }
        assertTrue(HeaderPolicy.isHopByHop("Transfer-Encoding"));
        assertTrue(HeaderPolicy.isHopByHop("Proxy-Foo"));
        assertTrue(HeaderPolicy.isHopByHop("PROXY-"));
    }

    @Test
    void endToEndNamesAreNot() {
        for (String name : new String[] {"content-type", "Content-Length", "x-request-id", "proxy", "proxies",
                "x-proxy-id", "te-x", "keep-alive-x", "", "upgrades"}) {
            assertFalse(HeaderPolicy.isHopByHop(name), name);
        }
    }
}
