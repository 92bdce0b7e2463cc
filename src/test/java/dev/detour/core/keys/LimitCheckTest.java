package dev.detour.core.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.ValidationException;
import dev.detour.core.cluster.InstanceShare;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

class LimitCheckTest {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final LongUnaryOperator ALONE = n -> n;

    @Test
    void aKeyUnderEveryLimitIsAdmittedAndTheHeadroomCountsThisRequest() {
        KeyLimits limits = new KeyLimits(10L, null, null, Map.of());
        LimitCheck.Verdict v = LimitCheck.admit(limits, usage(LimitKind.REQUESTS, T0, 3), ALONE, T0);
        assertTrue(v.admitted());
        assertEquals(new LimitCheck.Headroom(LimitKind.REQUESTS, 10, 4, 61), v.tightest());
        assertEquals(6, v.tightest().remaining());
    }

    @Test
    void anAdmittedRequestsResetIsWhenTheOldestCountOfTheSharedOrThisInstancesCountLeaves() {
        KeyLimits limits = new KeyLimits(100L, null, null, Map.of());
        Map<LimitKind, Map<Long, Long>> older = buckets(LimitKind.REQUESTS, T0, 4);
        Map<LimitKind, Map<Long, Long>> newer = buckets(LimitKind.REQUESTS, T0.plusSeconds(30), 2);
        Instant now = T0.plusSeconds(40);
        LimitCheck.Headroom expected = new LimitCheck.Headroom(LimitKind.REQUESTS, 100, 7, 21); // T0's second: at +61
        assertEquals(expected, LimitCheck.admit(limits, new KeyUsage(older, newer, 0), ALONE, now).tightest());
        assertEquals(expected, LimitCheck.admit(limits, new KeyUsage(newer, older, 0), ALONE, now).tightest());
        assertEquals(new LimitCheck.Headroom(LimitKind.REQUESTS, 100, 1, 61),
                LimitCheck.admit(limits, KeyUsage.NONE, ALONE, now).tightest(), "only this request: its own second");
        KeyLimits daily = new KeyLimits(null, null, null, Map.of(LimitWindow.DAY, 100L));
        assertEquals(new LimitCheck.Headroom(LimitKind.SPEND_DAY, 100, 0, 0),
                LimitCheck.admit(daily, KeyUsage.NONE, ALONE, now).tightest(), "no spend yet: nothing to leave");
    }

    @Test
    void theHeadroomShownCountsNoNewRequestAndResetsWhenTheOldestCountOfEitherCountLeaves() {
        KeyLimits limits = new KeyLimits(100L, 1000L, 2, Map.of(LimitWindow.DAY, 100L));
        Map<LimitKind, Map<Long, Long>> shared = new EnumMap<>(LimitKind.class);
        shared.putAll(buckets(LimitKind.REQUESTS, T0.plusSeconds(10), 2));
        Map<LimitKind, Map<Long, Long>> mine = new EnumMap<>(LimitKind.class);
        mine.putAll(buckets(LimitKind.REQUESTS, T0, 3));
        mine.putAll(buckets(LimitKind.TOKENS, T0.plusSeconds(20), 50));
        Instant now = T0.plusSeconds(30);

        assertEquals(List.of(new LimitCheck.Headroom(LimitKind.REQUESTS, 100, 5, 31),
                new LimitCheck.Headroom(LimitKind.TOKENS, 1000, 50, 51),
                new LimitCheck.Headroom(LimitKind.CONCURRENT, 2, 1, 0),
                new LimitCheck.Headroom(LimitKind.SPEND_DAY, 100, 0, 0)),
                LimitCheck.headroom(limits, new KeyUsage(shared, mine, 1), ALONE, now),
                "the 3 requests made at 0 (this instance's) leave at 61 s; nothing spent, nothing to leave");
    }

    @Test
    void aWindowSumsBothCountsInsideItAndFindsTheOldestBucketWithACount() {
        Instant now = T0.plusSeconds(100);
        long current = RollingCount.bucket(LimitWindow.MINUTE, now);
        Map<Long, Long> shared = Map.of(current - 61, 9L, current - 60, 0L, current - 59, 2L, current, 1L);
        Map<Long, Long> mine = Map.of(current - 30, 3L, current + 1, 5L); // a bucket ahead of the clock: not yet
        KeyUsage usage = new KeyUsage(Map.of(LimitKind.REQUESTS, shared), Map.of(LimitKind.REQUESTS, mine), 0);
        assertEquals(new KeyUsage.Window(3, 3, current - 59), usage.window(LimitKind.REQUESTS, now),
                "the bucket that left and the one ahead count for nothing; an empty bucket is not the oldest");
        assertEquals(6, usage.total(LimitKind.REQUESTS, now));
        assertEquals(new KeyUsage.Window(0, 0, Long.MAX_VALUE), KeyUsage.NONE.window(LimitKind.TOKENS, now));
    }

    @Test
    void theRequestsPerMinuteRefuseUntilTheOldestRequestsLeaveTheMinute() {
        KeyLimits limits = new KeyLimits(5L, null, null, Map.of());
        KeyUsage used = usage(LimitKind.REQUESTS, T0, 5);
        LimitCheck.Verdict v = LimitCheck.admit(limits, used, ALONE, T0.plusSeconds(20));
        assertEquals(LimitKind.REQUESTS, v.refusedBy());
        assertEquals(41, v.retryAfterSeconds());
        assertEquals(0, v.tightest().remaining());
        assertTrue(LimitCheck.admit(limits, used, ALONE, T0.plusSeconds(61)).admitted(), "the minute rolled on");
    }

    @Test
    void tokensAndWindowSpendRefuseOnceTheirCountReachesTheLimit() {
        KeyLimits tokens = new KeyLimits(null, 1000L, null, Map.of());
        assertEquals(LimitKind.TOKENS, LimitCheck.admit(tokens, usage(LimitKind.TOKENS, T0, 1200), ALONE, T0)
                .refusedBy());
        KeyLimits daily = new KeyLimits(null, null, null, Map.of(LimitWindow.DAY, 5_000_000L));
        LimitCheck.Verdict v = LimitCheck.admit(daily, usage(LimitKind.SPEND_DAY, T0, 5_000_000), ALONE, T0);
        assertEquals(LimitKind.SPEND_DAY, v.refusedBy());
        assertEquals("key.window_spend_limit", v.refusedBy().code());
        assertEquals(86_400 + 1440, v.retryAfterSeconds(), "a day and at most one 24-minute step");
    }

    @Test
    void concurrencyRefusesAtThisInstancesShareAndAsksForARetryInASecond() {
        KeyLimits limits = new KeyLimits(null, null, 3, Map.of());
        KeyUsage two = new KeyUsage(Map.of(), Map.of(), 2);
        LongUnaryOperator halfOfTwo = n -> new InstanceShare(2, 0).of((int) n);
        assertTrue(LimitCheck.admit(limits, two, ALONE, T0).admitted(), "alone: 2 of 3");
        LimitCheck.Verdict v = LimitCheck.admit(limits, two, halfOfTwo, T0);
        assertEquals(LimitKind.CONCURRENT, v.refusedBy(), "the first of two instances holds 2 of 3");
        assertEquals(1, v.retryAfterSeconds());
    }

    @Test
    void betweenTwoSyncsAnInstanceAdmitsOnlyItsShareOfWhatTheSharedCountLeaves() {
        KeyLimits limits = new KeyLimits(10L, null, null, Map.of());
        LongUnaryOperator secondOfTwo = n -> new InstanceShare(2, 1).of((int) n);
        Map<LimitKind, Map<Long, Long>> synced = buckets(LimitKind.REQUESTS, T0, 4); // 6 left: 3 + 3
        KeyUsage twoHere = new KeyUsage(synced, buckets(LimitKind.REQUESTS, T0, 2), 0);
        assertTrue(LimitCheck.admit(limits, twoHere, secondOfTwo, T0).admitted());
        KeyUsage threeHere = new KeyUsage(synced, buckets(LimitKind.REQUESTS, T0, 3), 0);
        LimitCheck.Verdict v = LimitCheck.admit(limits, threeHere, secondOfTwo, T0);
        assertEquals(LimitKind.REQUESTS, v.refusedBy());
        assertEquals(1, v.retryAfterSeconds(), "the next sync shares the rest again");
    }

    @Test
    void theTightestLimitIsTheOneWithTheSmallestShareLeftAndARefusalNamesTheLongestWait() {
        KeyLimits limits = new KeyLimits(100L, 1000L, null, Map.of(LimitWindow.DAY, 10L));
        Map<LimitKind, Map<Long, Long>> used = new EnumMap<>(LimitKind.class);
        used.putAll(buckets(LimitKind.REQUESTS, T0, 10)); // 89 of 100 left after this one
        used.putAll(buckets(LimitKind.TOKENS, T0, 800)); // 20 % left
        used.putAll(buckets(LimitKind.SPEND_DAY, T0, 5)); // 50 % left
        LimitCheck.Verdict v = LimitCheck.admit(limits, new KeyUsage(used, Map.of(), 0), ALONE, T0);
        assertEquals(LimitKind.TOKENS, v.tightest().kind());
        assertEquals(200, v.tightest().remaining());

        used.putAll(buckets(LimitKind.TOKENS, T0, 1000));
        used.putAll(buckets(LimitKind.SPEND_DAY, T0, 10));
        LimitCheck.Verdict both = LimitCheck.admit(limits, new KeyUsage(used, Map.of(), 0), ALONE, T0);
        assertEquals(LimitKind.SPEND_DAY, both.refusedBy(), "the day frees long after the minute");
    }

    @Test
    void aKeyWithoutLimitsHasNoTightestLimit() {
        LimitCheck.Verdict v = LimitCheck.admit(KeyLimits.NONE, KeyUsage.NONE, ALONE, T0);
        assertTrue(v.admitted());
        assertNull(v.tightest());
        assertTrue(LimitCheck.headroom(KeyLimits.NONE, KeyUsage.NONE, ALONE, T0).isEmpty());
    }

    @Test
    void headroomShowsEveryLimitAsUsedNow() {
        KeyLimits limits = new KeyLimits(10L, null, 2, Map.of(LimitWindow.MONTH, 50L));
        Map<LimitKind, Map<Long, Long>> used = new EnumMap<>(LimitKind.class);
        used.putAll(buckets(LimitKind.REQUESTS, T0, 4));
        used.putAll(buckets(LimitKind.SPEND_MONTH, T0, 20));
        var lines = LimitCheck.headroom(limits, new KeyUsage(used, Map.of(), 1), ALONE, T0.plusSeconds(1));
        assertEquals(3, lines.size());
        assertEquals(new LimitCheck.Headroom(LimitKind.REQUESTS, 10, 4, 60), lines.get(0));
        assertEquals(new LimitCheck.Headroom(LimitKind.CONCURRENT, 2, 1, 0), lines.get(1));
        assertEquals(30, lines.get(2).remaining());
    }

    @Test
    void limitsBelowOneAndNegativeWindowSpendAreRefusedWithTheirFieldCodes() {
        assertEquals("validation.key_policy.rpm_limit",
                assertThrows(ValidationException.class, () -> new KeyLimits(0L, null, null, Map.of())).code());
        assertEquals("validation.key_policy.tpm_limit",
                assertThrows(ValidationException.class, () -> new KeyLimits(null, -5L, null, Map.of())).code());
        assertEquals("validation.key_policy.concurrency_limit",
                assertThrows(ValidationException.class, () -> new KeyLimits(null, null, -1, Map.of())).code());
        assertEquals("validation.key_policy.spend_windows", assertThrows(ValidationException.class,
                () -> new KeyLimits(null, null, null, Map.of(LimitWindow.WEEK, -1L))).code());
    }

    private static KeyUsage usage(LimitKind kind, Instant at, long amount) {
        return new KeyUsage(buckets(kind, at, amount), Map.of(), 0);
    }

    private static Map<LimitKind, Map<Long, Long>> buckets(LimitKind kind, Instant at, long amount) {
        Map<LimitKind, Map<Long, Long>> out = new EnumMap<>(LimitKind.class);
        Map<Long, Long> b = new HashMap<>();
        b.put(RollingCount.bucket(kind.window(), at), amount);
        out.put(kind, b);
        return out;
    }
}
