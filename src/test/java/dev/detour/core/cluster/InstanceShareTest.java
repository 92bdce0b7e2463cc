package dev.detour.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** S-5 / G-2: each live instance's part of max_in_flight, by count and rank; the heartbeat bound. */
class InstanceShareTest {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    @ParameterizedTest(name = "max {0} over {1} instances → {2} (rank 0, 1, …)")
    @CsvSource({
            "3, 1, 3",
            "3, 2, 2 1",
            "3, 3, 1 1 1",
            "10, 3, 4 3 3",
            "11, 3, 4 4 3",
            "4, 2, 2 2",
            "2, 3, 1 1 1",   // below the count: each keeps 1 (0 would read as unlimited)
            "0, 3, 0 0 0",   // unlimited stays unlimited
            "100, 7, 15 15 14 14 14 14 14"})
    void theRanksPartsAddUpToTheLimitWithTheRemainderOnTheLowestRanks(int max, int count, String parts) {
        List<Integer> expected = List.of(parts.split(" ")).stream().map(Integer::parseInt).toList();
        List<Integer> actual = IntStream.range(0, count).mapToObj(rank -> new InstanceShare(count, rank).of(max))
                .toList();
        assertEquals(expected, actual);
        actual.forEach(part -> assertTrue(part <= Math.max(max, 1), "no part above the limit"));
        if (max >= count) {
            assertEquals(max, actual.stream().mapToInt(Integer::intValue).sum(), "exactly the limit in all");
        }
    }

    @ParameterizedTest(name = "DETOUR_INSTANCES {1}: max {0} → {2}")
    @CsvSource({"3, 1, 3", "3, 2, 2", "3, 3, 1", "3, 5, 1", "10, 3, 4", "0, 4, 0"})
    void aPinnedCountTakesTheRoundedUpPartAsBefore(int max, int count, int share) {
        assertEquals(share, InstanceShare.pinned(count).of(max));
    }

    @Test
    void theRankFollowsStartOrderThenId() {
        List<RegisteredInstance> live = List.of(instance("c", 2), instance("b", 1), instance("a", 2));
        assertEquals(new InstanceShare(3, 0), InstanceShare.among(live, "b"));
        assertEquals(new InstanceShare(3, 1), InstanceShare.among(live, "a"));
        assertEquals(new InstanceShare(3, 2), InstanceShare.among(live, "c"));
    }

    @Test
    void anInstanceMissingFromTheRowsStillCountsItselfLast() {
        assertEquals(new InstanceShare(1, 0), InstanceShare.among(List.of(), "me"));
        assertEquals(new InstanceShare(3, 2), InstanceShare.among(List.of(instance("a", 0), instance("b", 1)), "me"));
    }

    @Test
    void aJoiningInstanceLeavesTheEarlierRanksAsTheyWere() {
        List<RegisteredInstance> two = new ArrayList<>(List.of(instance("x", 0), instance("y", 1)));
        InstanceShare before = InstanceShare.among(two, "x");
        two.add(instance("a-later", 5));
        assertEquals(before.rank(), InstanceShare.among(two, "x").rank());
        assertEquals(2, InstanceShare.among(two, "a-later").rank());
    }

    /** So while the survivors recount one after another, old and new parts together never pass the limit. */
    @Test
    void anInstanceLeavingNeverShrinksASurvivorsPart() {
        for (int max = 1; max <= 40; max++) {
            for (int count = 2; count <= 10; count++) {
                for (int leaver = 0; leaver < count; leaver++) {
                    for (int rank = 0; rank < count; rank++) {
                        if (rank != leaver) {
                            int after = new InstanceShare(count - 1, rank > leaver ? rank - 1 : rank).of(max);
                            int before = new InstanceShare(count, rank).of(max);
                            assertTrue(after >= before, "max " + max + ", rank " + rank + " of " + count
                                    + ", rank " + leaver + " leaves: " + before + " → " + after);
                        }
                    }
                }
            }
        }
    }

    /**
     * So while the others recount after a join (or a return, at any rank), old and new parts together pass the
     * limit by at most the newcomer's part.
     */
    @Test
    void anInstanceJoiningAtAnyRankNeverGrowsAnotherInstancesPart() {
        for (int max = 1; max <= 40; max++) {
            for (int count = 1; count <= 10; count++) {
                for (int joiner = 0; joiner <= count; joiner++) {
                    for (int rank = 0; rank < count; rank++) {
                        int before = new InstanceShare(count, rank).of(max);
                        int after = new InstanceShare(count + 1, rank >= joiner ? rank + 1 : rank).of(max);
                        assertTrue(after <= before, "max " + max + ", rank " + rank + " of " + count + ", one joins at "
                                + joiner + ": " + before + " → " + after);
                    }
                }
            }
        }
    }

    @Test
    void anInstanceIsGoneOnlyAfterThreeSilentPeriods() {
        assertEquals(Duration.ofSeconds(15), Heartbeat.GONE_AFTER);
        assertEquals(Duration.ofSeconds(20), Heartbeat.SHARE_BACK_WITHIN);
        RegisteredInstance seen = instance("a", 0).seenAt(T0);
        assertTrue(seen.liveAt(T0.plus(Heartbeat.PERIOD.multipliedBy(2))), "two missed beats: still live");
        assertTrue(seen.liveAt(T0.plus(Heartbeat.GONE_AFTER)));
        assertFalse(seen.liveAt(T0.plus(Heartbeat.GONE_AFTER).plusMillis(1)));
        assertTrue(seen.liveAt(T0.minusSeconds(2)), "a beat from a clock slightly ahead is live");
        assertFalse(seen.liveAt(T0.minus(Heartbeat.GONE_AFTER).minusMillis(1)), "clocks further apart than the bound");
    }

    private static RegisteredInstance instance(String id, int startedSecond) {
        Instant started = T0.plusSeconds(startedSecond);
        return new RegisteredInstance(id, "host:8080", "1.0", started, started);
    }
}
