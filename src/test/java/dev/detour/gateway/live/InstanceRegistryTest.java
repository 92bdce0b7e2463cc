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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongConsumer;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * G-2: heartbeats on one store set each instance's share; a silent one is gone after the bound; outages keep the
 * count; where the parts together may pass an account's limit (a join, an instance cut off), by how much and how long.
 */
class InstanceRegistryTest {
    /** An account's max_in_flight in the overshoot cases. */
    private static final int LIMIT = 3;
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

    @ParameterizedTest(name = "the others beat {0} ms and {1} ms into each period")
    @MethodSource("phasesOfTheOthers")
    void aJoiningInstanceAddsAtMostItsOwnPartAndOnlyUntilEveryOtherHasBeatenWithinOnePeriod(long phaseA, long phaseB) {
        Timeline timeline = new Timeline();
        Instance a = timeline.start(phaseA);
        Instance b = timeline.start(phaseB);
        timeline.settle();
        timeline.runUntil(10_000, t -> assertEquals(LIMIT, timeline.total(), "two instances: 2 + 1"));
        Instance joining = timeline.start(250); // a quarter second past a whole second: between the others' beats
        int part = joining.load.capacityShare(LIMIT);
        assertEquals(LIMIT + part, timeline.total(), "the overshoot is real: the others still hold 2 + 1");
        long joinedAt = timeline.now;
        timeline.runUntil(40_000, t -> {
            assertTrue(timeline.total() <= LIMIT + part, "at most the limit plus the newcomer's part at " + t);
            if (t >= joinedAt + Heartbeat.PERIOD.toMillis()) {
                assertEquals(LIMIT, timeline.total(), "exactly the limit one period after the join, at " + t);
            }
        });
        assertEquals(List.of(1, 1, 1), List.of(a.part(), b.part(), joining.part()));
    }

    static Stream<Arguments> phasesOfTheOthers() {
        return LongStream.range(0, 5).boxed().flatMap(pa -> LongStream.range(0, 5)
                .mapToObj(pb -> Arguments.of(pa * 1000, pb * 1000)));
    }

    @Test
    void anInstanceCutOffFromTheDatabaseKeepsItsPartWhileTheOthersTakeItBackSoTheTotalPassesTheLimitByThatPart() {
        Timeline timeline = new Timeline();
        Instance cut = timeline.start(0);
        Instance b = timeline.start(1000);
        Instance c = timeline.start(2000);
        timeline.settle();
        timeline.runUntil(10_500, t -> assertEquals(LIMIT, timeline.total()));
        int part = cut.part();

        cut.link.cut = true; // at 10.5 s, after its beat at 10 s
        long lastBeat = 10_000;
        timeline.runUntil(60_500, t -> {
            assertTrue(timeline.total() <= LIMIT + part, "at most the limit plus the cut-off part at " + t);
            if (t >= lastBeat + Heartbeat.SHARE_BACK_WITHIN.toMillis()) {
                assertEquals(LIMIT, b.part() + c.part(), "the others took its share back within 20 s, at " + t);
                assertEquals(part, cut.part(), "the cut-off instance keeps its last count");
            }
        });
        assertEquals(LIMIT + part, timeline.total(), "the overshoot lasts while it is cut off");

        cut.link.cut = false; // the database again, at 60.5 s
        long back = timeline.now;
        timeline.runUntil(90_000, t -> {
            assertTrue(timeline.total() <= LIMIT + part, "at " + t);
            if (t >= back + 2 * Heartbeat.PERIOD.toMillis()) {
                assertEquals(LIMIT, timeline.total(), "its next beat and then each other's: the limit again, at " + t);
            }
        });
    }

    @Test
    void theWholeDatabaseAwayAndBackNeverLetsTheTotalPassTheLimit() {
        Timeline timeline = new Timeline();
        List<Instance> all = List.of(timeline.start(0), timeline.start(1000), timeline.start(2000));
        timeline.settle();
        timeline.runUntil(10_500, t -> assertEquals(LIMIT, timeline.total()));

        all.forEach(i -> i.link.cut = true);
        timeline.runUntil(60_500, t -> assertEquals(LIMIT, timeline.total(), "each keeps its last count, at " + t));
        all.forEach(i -> i.link.cut = false); // every row is now 50 s old
        timeline.runUntil(120_000, t -> {
            assertTrue(timeline.total() <= LIMIT, "the first beat back does not count the others gone, at " + t);
        });
        assertEquals(List.of(3, 3, 3), all.stream().map(i -> i.registry.liveCount()).toList());
    }

    @Test
    void anInstanceThatDiedWhileTheWholeDatabaseWasAwayGivesItsShareBackWithinTwentyFiveSecondsOfTheReturn() {
        Timeline timeline = new Timeline();
        Instance a = timeline.start(0);
        Instance b = timeline.start(1000);
        Instance dies = timeline.start(2000);
        timeline.settle();
        timeline.runUntil(10_500, t -> assertEquals(LIMIT, timeline.total()));

        List.of(a, b, dies).forEach(i -> i.link.cut = true);
        timeline.runUntil(30_500, t -> { });
        timeline.stop(dies); // killed during the outage: it never beats again
        timeline.runUntil(60_500, t -> { });
        a.link.cut = false;
        b.link.cut = false;
        long back = timeline.now;
        timeline.runUntil(100_000, t -> {
            assertTrue(a.part() + b.part() <= LIMIT, "at " + t);
            if (t >= back + Heartbeat.SHARE_BACK_AFTER_OUTAGE_WITHIN.toMillis()) {
                assertEquals(LIMIT, a.part() + b.part(), "the dead one's share is back, at " + t);
            }
        });
        assertEquals(Duration.ofSeconds(25), Heartbeat.SHARE_BACK_AFTER_OUTAGE_WITHIN);
    }

    @Test
    void aBeatThatWaitedOutTheOutageCountsTheOthersForTheWholeBoundFromWhenItsReadCameBack() {
        Instance a = new Instance(false, new Link());
        new Instance(false, new Link());
        a.registry.beat(clock.instant());
        assertEquals(2, a.registry.liveCount());

        a.link.cut = true; // the whole database away
        clock.advance(Duration.ofSeconds(10));
        assertThrows(IllegalStateException.class, () -> a.registry.beat(clock.instant()));
        clock.advance(Duration.ofSeconds(30));
        Instant started = clock.instant();
        a.link.cut = false;
        a.link.stall = Duration.ofSeconds(34); // this beat's call waits until the database is back (seen on Galera)
        a.registry.beat(started);
        a.link.stall = Duration.ZERO;
        assertEquals(2, a.registry.liveCount());

        clock.advance(Heartbeat.PERIOD); // the other has not beaten yet: its own call is still waiting
        a.registry.beat(clock.instant());
        assertEquals(2, a.registry.liveCount(), "the grace runs from when the read came back, not from the beat's start");
    }

    /**
     * Instances beating every {@link Heartbeat#PERIOD} at their own phase (as each one's loop does), on the test's
     * clock moved in steps of 250 ms from 0; a beat that cannot reach the database is ignored, as the loop's is.
     */
    private final class Timeline {
        private final Map<Instance, Long> phases = new LinkedHashMap<>();
        private final Instant start = clock.instant();
        long now;

        /** An instance started now (its first beat at once), beating later at {@code phase} ms into each period. */
        Instance start(long phase) {
            Instance instance = new Instance(false, new Link());
            phases.put(instance, phase);
            return instance;
        }

        /** One period with no check: every instance has beaten since the last one started (that start is a join). */
        void settle() {
            runUntil(now + Heartbeat.PERIOD.toMillis(), t -> { });
        }

        void stop(Instance instance) {
            phases.remove(instance);
        }

        /** Moves the clock to {@code until}, beating who is due at each step, then checking. */
        void runUntil(long until, LongConsumer check) {
            while (now < until) {
                now += 250;
                clock.set(start.plusMillis(now));
                phases.forEach((instance, phase) -> {
                    if (Math.floorMod(now - phase, Heartbeat.PERIOD.toMillis()) == 0) {
                        try {
                            instance.registry.beat(clock.instant());
                        } catch (IllegalStateException e) {
                            // the loop logs it and keeps the last count
                        }
                    }
                });
                check.accept(now);
            }
        }

        /** The parts of an account's limit the serving instances hold now. */
        int total() {
            return phases.keySet().stream().mapToInt(Instance::part).sum();
        }
    }

    /** One instance: its load state and registry, registered on the shared rows. */
    private final class Instance {
        final LoadDistribution load = new LoadDistribution(null, null);
        final InstanceRegistry registry;
        final Link link;

        Instance(boolean pinned) {
            this(pinned, null);
        }

        Instance(boolean pinned, Link link) {
            this.link = link;
            registry = new InstanceRegistry(link == null ? rows : link, load, clock, "1.0", pinned);
            registry.beat(clock.instant());
        }

        int part() {
            return load.capacityShare(LIMIT);
        }
    }

    /** One instance's way to the shared rows, which can be cut (that instance alone loses the database). */
    private final class Link implements InstanceStore {
        volatile boolean cut;
        /** How long a read of the rows takes (the test's clock moves that much during it). */
        volatile Duration stall = Duration.ZERO;

        @Override
        public void beat(RegisteredInstance self) {
            check();
            rows.beat(self);
        }

        @Override
        public List<RegisteredInstance> all() {
            check();
            clock.advance(stall);
            return rows.all();
        }

        @Override
        public void remove(String id) {
            check();
            rows.remove(id);
        }

        @Override
        public void forgetUnseenSince(Instant before) {
            check();
            rows.forgetUnseenSince(before);
        }

        private void check() {
            if (cut) {
                throw new IllegalStateException("database unreachable from this instance");
            }
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
