package dev.detour.adapter.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.security.FailureDelays;
import dev.detour.testkit.MutableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** X-3 the throttle's state: who is slowed (only who failed), what clears it, and its memory bound. */
class AuthThrottleTest {
    private final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    private final AuthThrottle throttle = AuthThrottle.standard("console password", clock);

    private void fail(int times, String address, String name) {
        for (int i = 0; i < times; i++) {
            throttle.failed(address, name);
        }
    }

    @Test
    void anAddressWithNoFailuresIsNeverRefusedWhateverOthersDid() {
        for (int i = 0; i < 100; i++) {
            throttle.failed("203.0.113." + (i % 7), "admin");
        }
        fail(100, "203.0.113.200", "admin");
        assertSame(Duration.ZERO, throttle.waitFor("198.51.100.1", "admin"));
        assertSame(Duration.ZERO, throttle.waitFor("198.51.100.1"));
    }

    @Test
    void failuresOnANameSlowThatAddressOnThatNameOnly() {
        fail(4, "203.0.113.7", "admin");
        assertEquals(Duration.ZERO, throttle.waitFor("203.0.113.7", "admin"), "four are free");
        throttle.failed("203.0.113.7", "Admin "); // names compare trimmed, case-blind
        assertEquals(Duration.ofSeconds(1), throttle.waitFor("203.0.113.7", "admin"));
        assertEquals(Duration.ZERO, throttle.waitFor("203.0.113.7", "operator"), "other names: the address allowance");
        assertEquals(Duration.ZERO, throttle.waitFor("203.0.113.8", "admin"), "other addresses: nothing");
    }

    @Test
    void aClientStuckOnOneStaleKeySlowsThatKeyOnlyNotTheOtherClientsAtItsAddress() {
        AuthThrottle keys = AuthThrottle.standard("Detour key", clock);
        for (int i = 0; i < 100; i++) {
            if (keys.waitForCredential("203.0.113.7", "dtr-revoked-key-0001").isZero()) {
                keys.failedCredential("203.0.113.7", "dtr-revoked-key-0001");
            }
            clock.advance(Duration.ofSeconds(1));
        }
        assertTrue(keys.waitForCredential("203.0.113.7", "dtr-revoked-key-0001").toSeconds() >= 1, "the stale key waits");
        assertSame(Duration.ZERO, keys.waitForCredential("203.0.113.7", "dtr-good-key-of-a-colleague"),
                "a colleague behind the same NAT is served");
    }

    @Test
    void everNewWrongKeysFromOneAddressSlowThatAddressForEveryKey() {
        AuthThrottle keys = AuthThrottle.standard("Detour key", clock);
        for (int i = 0; i < 9; i++) {
            keys.failedCredential("203.0.113.7", "dtr-guess-" + i);
            keys.failedCredential("203.0.113.7", "dtr-guess-" + i); // a repeat is not a new guess
        }
        assertSame(Duration.ZERO, keys.waitForCredential("203.0.113.7", "dtr-any"), "nine distinct guesses are free");
        keys.failedCredential("203.0.113.7", "dtr-guess-9");
        assertEquals(Duration.ofSeconds(1), keys.waitForCredential("203.0.113.7", "dtr-any"));
        assertSame(Duration.ZERO, keys.waitForCredential("198.51.100.1", "dtr-any"), "other addresses: nothing");
    }

    @Test
    void theDelayGrowsWithEachFurtherFailure() {
        fail(5, "203.0.113.7", "admin");
        long[] expected = {1, 2, 4, 8, 16};
        for (long seconds : expected) {
            assertEquals(Duration.ofSeconds(seconds), throttle.waitFor("203.0.113.7", "admin"));
            clock.advance(Duration.ofSeconds(seconds)); // the attacker waits it out and fails again
            assertEquals(Duration.ZERO, throttle.waitFor("203.0.113.7", "admin"));
            throttle.failed("203.0.113.7", "admin");
        }
        assertEquals(Duration.ofSeconds(32), throttle.waitFor("203.0.113.7", "admin"));
    }

    @Test
    void sprayingManyNamesFromOneAddressSlowsThatAddressForEveryName() {
        for (int i = 0; i < 10; i++) {
            throttle.failed("203.0.113.7", "user" + i);
        }
        assertEquals(Duration.ofSeconds(1), throttle.waitFor("203.0.113.7", "fresh-name"));
        assertEquals(Duration.ofSeconds(1), throttle.waitFor("203.0.113.7"));
        assertEquals(Duration.ZERO, throttle.waitFor("203.0.113.8", "fresh-name"));
    }

    @Test
    void aGoodSignInClearsThatNameFromThatAddressButNotTheAddressCount() {
        fail(5, "203.0.113.7", "admin");
        fail(4, "203.0.113.7", "other");
        throttle.succeeded("203.0.113.7", "admin");
        assertEquals(Duration.ZERO, throttle.waitFor("203.0.113.7", "admin"));
        // one more failure makes ten from this address: a valid account does not buy more guesses
        throttle.failed("203.0.113.7", "other");
        assertEquals(Duration.ofSeconds(1), throttle.waitFor("203.0.113.7", "admin"));
    }

    @Test
    void failuresAreForgottenAfterQuietHours() {
        fail(6, "203.0.113.7", "admin");
        clock.advance(Duration.ofHours(3)); // 6 → 3 → 1 → 0
        throttle.failed("203.0.113.7", "admin");
        fail(3, "203.0.113.7", "admin");
        assertEquals(Duration.ZERO, throttle.waitFor("203.0.113.7", "admin"), "counted afresh: four are free");
    }

    @Test
    void addressOnlyCredentialsAreCountedPerAddress() {
        AuthThrottle keys = AuthThrottle.standard("Detour key", clock);
        for (int i = 0; i < 10; i++) {
            keys.failed("203.0.113.7");
        }
        assertEquals(Duration.ofSeconds(1), keys.waitFor("203.0.113.7"));
        assertSame(Duration.ZERO, keys.waitFor("198.51.100.1"));
    }

    @Test
    void ipv6ClientsAreCountedPerSlash64() {
        AuthThrottle keys = AuthThrottle.standard("Detour key", clock);
        for (int i = 0; i < 10; i++) {
            keys.failed("2001:db8:1:2::" + Integer.toHexString(i + 1)); // rotating through one /64
        }
        assertEquals(Duration.ofSeconds(1), keys.waitFor("2001:db8:1:2:ffff::1"));
        assertEquals(Duration.ofSeconds(1), keys.waitFor("[2001:db8:1:2::99]"));
        assertEquals(Duration.ZERO, keys.waitFor("2001:db8:1:3::1"), "the next /64 is someone else");
        assertEquals("2001:db8:1:2::/64", AuthThrottle.addressKey("2001:0db8:0001:0002:0:0:0:1"));
        assertEquals("192.0.2.1", AuthThrottle.addressKey("::ffff:192.0.2.1"));
        assertEquals("192.0.2.1", AuthThrottle.addressKey("192.0.2.1"));
    }

    @Test
    void aFloodOfDistinctAddressesStaysWithinTheCapAndKeepsTheNewest() {
        AuthThrottle small = new AuthThrottle("Detour key", clock, FailureDelays.PER_ADDRESS,
                FailureDelays.PER_ADDRESS_AND_NAME, 100);
        for (int i = 0; i < 10; i++) {
            small.failed("198.51.100.1");
        }
        for (int i = 0; i < 5_000; i++) {
            clock.advance(Duration.ofMillis(1));
            small.failed("10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255));
            assertTrue(small.size() <= 100, "size " + small.size() + " after " + i);
        }
        for (int i = 0; i < 10; i++) {
            small.failed("203.0.113.7");
        }
        assertEquals(Duration.ofSeconds(1), small.waitFor("203.0.113.7"), "the newest attacker is still slowed");
        // the oldest record gave way (fail open: that address starts afresh, it is never locked out)
        assertEquals(Duration.ZERO, small.waitFor("198.51.100.1"));
    }

    @Test
    void forgottenRecordsArePrunedBeforeRecentOnes() {
        AuthThrottle small = new AuthThrottle("Detour key", clock, FailureDelays.PER_ADDRESS,
                FailureDelays.PER_ADDRESS_AND_NAME, 100);
        for (int i = 0; i < 99; i++) {
            small.failed("10.0.0." + i);
        }
        for (int i = 0; i < 10; i++) {
            small.failed("10.0.1.1"); // the 100th record: at the cap, not over it
        }
        assertEquals(100, small.size());
        clock.advance(Duration.ofMinutes(61)); // the single failures decayed to zero; 10.0.1.1's ten count 5
        for (int i = 0; i < 4; i++) {
            small.failed("10.0.1.1");
        }
        small.failed("10.0.2.1"); // over the cap: prunes
        assertEquals(2, small.size(), "only the two live records stay");
        assertEquals(Duration.ZERO, small.waitFor("10.0.1.1"), "ten counted as five, plus four: not yet");
        small.failed("10.0.1.1");
        assertEquals(Duration.ofSeconds(1), small.waitFor("10.0.1.1"), "the tenth");
    }
}
