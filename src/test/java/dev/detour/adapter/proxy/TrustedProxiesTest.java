package dev.detour.adapter.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** O-3: whose X-Forwarded-For / X-Forwarded-Proto are believed. */
class TrustedProxiesTest {
    private static final TrustedProxies PROXIES = new TrustedProxies(List.of("10.0.0.5", "192.168.0.0/16", "fd00::/8"));

    @ParameterizedTest(name = "peer {0}, XFF ''{1}'' → {2}")
    @CsvSource(delimiter = '|', value = {
        "203.0.113.9  | 1.2.3.4                 | 203.0.113.9",   // untrusted peer: XFF ignored
        "10.0.0.6     | 1.2.3.4                 | 10.0.0.6",      // near miss of a single trusted IP
        "10.0.0.5     | 1.2.3.4                 | 1.2.3.4",       // trusted peer: XFF used
        "10.0.0.5     |                         | 10.0.0.5",      // trusted peer without XFF
        "192.168.7.20 | 1.2.3.4                 | 1.2.3.4",       // CIDR member
        "192.169.0.1  | 1.2.3.4                 | 192.169.0.1",   // outside the CIDR
        "10.0.0.5     | 6.6.6.6, 1.2.3.4        | 1.2.3.4",       // a forged left part is not believed
        "10.0.0.5     | 1.2.3.4, 192.168.1.1    | 1.2.3.4",       // trusted hops are skipped
        "10.0.0.5     | 192.168.1.1, 10.0.0.5   | 192.168.1.1",   // all trusted: the left-most
        "10.0.0.5     | not-an-ip               | 10.0.0.5",      // garbage: the peer
        "fd12::1      | 2001:db8::7             | 2001:db8::7",   // IPv6 CIDR
        "fe80::1      | 2001:db8::7             | fe80::1",
    })
    void clientAddressTable(String peer, String forwardedFor, String expected) {
        List<String> xff = forwardedFor == null ? List.of() : Arrays.asList(forwardedFor);
        assertEquals(expected, PROXIES.clientIp(peer, xff));
    }

    @ParameterizedTest(name = "peer {0}, proto {1} → https {2}")
    @CsvSource({
        "10.0.0.5, https, true",
        "10.0.0.5, HTTPS, true",
        "10.0.0.5, http, false",
        "203.0.113.9, https, false",
    })
    void forwardedProtoIsBelievedOnlyFromATrustedPeer(String peer, String proto, boolean https) {
        assertEquals(https, PROXIES.forwardedHttps(peer, proto));
    }
}
