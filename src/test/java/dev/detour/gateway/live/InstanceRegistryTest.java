package dev.detour.gateway.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.cluster.Heartbeat;
import dev.detour.core.cluster.InstanceShare;
import dev.detour.core.cluster.RegisteredInstance;
import dev.detour.gateway.port.InstanceStore;
import dev.detour.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** G-2: heartbeats on one store set each instance's share; a silent one is gone after the bound; outages keep the count. */
class InstanceRegistryTest {
    private final MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
    private final SharedRows rows = new SharedRows();

    @Test
    void twoInstancesSplitAnOddLimitTwoAndOneInStartOrder() {
        Instance first = new Instance(false);
        clock.advance(Duration.ofSeconds(1));
        Instance second = new Instance(false);
        first.registry.beat(clock.instant());

        assertEquals(new InstanceShare(2, 0), first.load.share());
        assertEquals(new InstanceShare(2, 1), second.load.share());
        assertEquals(2, first.load.capacityShare(3));
        assertEquals(1, second.load.capacityShare(3));
        assertEquals(2, first.registry.liveCount());
    }

    @Test
    void aSilentInstanceCountsUntilTheBoundAndIsGoneAfterIt() {
        Instance first = new Instance(false);
        Instance second = new Instance(false);
        first.registry.beat(clock.instant());
        assertEquals(2, first.registry.liveCount());

        clock.advance(Heartbeat.GONE_AFTER); // the second stopped beating (crashed)
        first.registry.beat(clock.instant());
        assertEquals(2, first.registry.liveCount(), "three silent periods are still within the bound");

        clock.advance(Duration.ofSeconds(1));
        first.registry.beat(clock.instant());
        assertEquals(1, first.registry.liveCount());
        assertEquals(3, first.load.capacityShare(3), "the whole limit comes back");
        assertEquals(2, rows.all().size(), "the row stays, listed as gone");
        assertFalse(rows.byId.get(second.registry.selfId()).liveAt(clock.instant()));
    }

    @Test
    void anOrderlyStopRemovesTheRowAndTheOthersTakeTheShareAtTheirNextBeat() {
        Instance first = new Instance(false);
        Instance second = new Instance(false);
        first.registry.beat(clock.instant());
        second.registry.close();

        assertEquals(1, rows.all().size());
        first.registry.beat(clock.instant());
        assertEquals(1, first.registry.liveCount());
        assertEquals(3, first.load.capacityShare(3));
    }

    @Test
    void aBeatStillUnderWayWhenTheInstanceLeavesDoesNotWriteTheRowBack() {
        Instance leaving = new Instance(false);
        leaving.registry.close();
        leaving.registry.beat(clock.instant());

        assertEquals(List.of(), rows.all());
    }

    @Test
    void aDatabaseOutageKeepsTheLastCountAndTheShare() {
        Instance first = new Instance(false);
        new Instance(false);
        first.registry.beat(clock.instant());
        InstanceShare before = first.load.share();

        rows.failing = true;
        clock.advance(Duration.ofMinutes(5));
        assertThrows(IllegalStateException.class, () -> first.registry.beat(clock.instant()));
        assertEquals(before, first.load.share());
        assertEquals(2, first.registry.liveCount());
        assertTrue(first.load.capacityShare(3) >= 1 && first.load.capacityShare(3) <= 3);
    }

    @Test
    void aPinnedCountIsKeptWhateverTheRegistryLists() {
        Instance pinned = new Instance(true);
        pinned.load.useInstances(3);
        new Instance(false);
        pinned.registry.beat(clock.instant());

        assertEquals(2, pinned.registry.liveCount(), "still registered and counting");
        assertEquals(1, pinned.load.capacityShare(3), "DETOUR_INSTANCES=3 decides");
    }

    @Test
    void rowsGoneForADayAreForgottenAtTheNextBeat() {
        Instance first = new Instance(false);
        new Instance(false);
        clock.advance(Heartbeat.FORGOTTEN_AFTER.plusSeconds(1));
        first.registry.beat(clock.instant());

        assertEquals(List.of(first.registry.selfId()), rows.all().stream().map(RegisteredInstance::id).toList());
    }

    /** One instance: its load state and registry, registered on the shared rows. */
    private final class Instance {
        final LoadDistribution load = new LoadDistribution(null, null);
        final InstanceRegistry registry;

        Instance(boolean pinned) {
            registry = new InstanceRegistry(rows, load, clock, "1.0", pinned);
            registry.beat(clock.instant());
        }
    }

    /** The registry table of several instances, in memory (a store of Detour's own port, not a database mock). */
    private static final class SharedRows implements InstanceStore {
        final Map<String, RegisteredInstance> byId = new ConcurrentHashMap<>();
        volatile boolean failing;

        @Override
        public void beat(RegisteredInstance self) {
            check();
            byId.put(self.id(), self);
        }

        @Override
        public List<RegisteredInstance> all() {
            check();
            return new ArrayList<>(byId.values());
        }

        @Override
        public void remove(String id) {
            check();
            byId.remove(id);
        }

        @Override
        public void forgetUnseenSince(Instant before) {
            check();
            byId.values().removeIf(i -> i.lastSeenAt().isBefore(before));
        }

        private void check() {
            if (failing) {
                throw new IllegalStateException("database unavailable");
            }
        }
    }
}
