package dev.detour.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.RepeatedTest;

/** The cluster's ports stay below the ephemeral range, so a restarted node finds its IST and SST ports free. */
class GaleraClusterPortsTest {

    @RepeatedTest(20)
    void everyPortOfTheClusterIsBelowTheEphemeralRange() {
        int base = GaleraCluster.freeBasePort();
        int highest = java.util.Collections.max(GaleraCluster.clusterPorts(base));

        assertTrue(base >= 20_000, "base " + base);
        assertTrue(highest < GaleraCluster.ephemeralLow(), highest + " vs " + GaleraCluster.ephemeralLow());
    }
}
