package dev.detour.admin.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.detour.admin.port.EventNames;
import dev.detour.admin.port.UsageStats;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BreakdownsTest {
    private static final Instant NOW = Instant.parse("2026-11-29T10:17:42Z");

    /** Usage as given; records the windows it was asked for. */
    private static final class GivenUsage implements UsageStats {
        final List<Instant[]> asked = new ArrayList<>();
        final List<Long> keys = new ArrayList<>();
        List<Slice> slices = List.of();
        List<Bucket> buckets = List.of();
        List<Latency> latencies = List.of();

        @Override
        public List<Slice> slices(Instant since, Instant until, Long keyId) {
            asked.add(new Instant[] {since, until});
            keys.add(keyId);
            return slices;
        }

        @Override
        public List<Latency> latencies(Dimension dimension, Instant since, Instant until, Long keyId) {
            return latencies.stream().filter(l -> dimension == Dimension.MODEL ? !l.value().matches("\\d+")
                    : l.value().matches("\\d+")).toList();
        }

        @Override
        public List<Bucket> series(Instant since, Instant until, long stepSeconds, Long keyId) {
            return buckets;
        }
    }

    private static UsageStats.Slice slice(String model, Long account, long requests, long errors, long input,
            long cacheRead, long cacheWrite, long queued, long queuedMs) {
        return new UsageStats.Slice(model, 7L, account, 1L, requests, errors, input, 0, cacheRead, cacheWrite, 0, queued,
                queuedMs);
    }

    private static final EventNames NAMES = new EventNames(
            Map.of(7L, new EventNames.Named(7, "alice", false)),
            Map.of(3L, new EventNames.Named(3, "relay-old", true)), Map.of(), List.of());

    @Test
    void eachWindowEndsAtTheNextStepBoundarySoTheLastBarIsTheOneNowFilling() {
        GivenUsage usage = new GivenUsage();
        Breakdowns breakdowns = new Breakdowns(usage, () -> NAMES);
        for (Breakdowns.Span span : Breakdowns.Span.values()) {
            breakdowns.report(span, NOW, null, EnumSet.noneOf(UsageStats.Dimension.class));
        }
        assertEquals(List.of("2026-11-29T09:18:00Z..2026-11-29T10:18:00Z", "2026-11-28T11:00:00Z..2026-11-29T11:00:00Z",
                "2026-11-22T12:00:00Z..2026-11-29T12:00:00Z", "2026-10-31T00:00:00Z..2026-11-30T00:00:00Z"),
                usage.asked.stream().map(w -> w[0] + ".." + w[1]).toList());
    }

    @Test
    void bucketsLandInTheirBarsAndLinesAreNamedArchivedOrDeleted() {
        GivenUsage usage = new GivenUsage();
        usage.buckets = List.of(new UsageStats.Bucket(0, 2, 1, 30, 500), new UsageStats.Bucket(23, 5, 0, 70, 1500));
        usage.slices = List.of(slice("m", 7L, 4, 0, 0, 0, 0, 0, 0), slice("m", 3L, 3, 0, 0, 0, 0, 0, 0),
                slice("m", 99L, 2, 0, 0, 0, 0, 0, 0), slice("m", null, 1, 0, 0, 0, 0, 0, 0));
        Breakdowns.Report report = new Breakdowns(usage, () -> NAMES).report(Breakdowns.Span.DAY, NOW, 7L,
                EnumSet.of(UsageStats.Dimension.ACCOUNT));
        assertEquals(2, report.requests().bars().get(0).value());
        assertEquals(5, report.requests().bars().get(23).value());
        assertEquals(1500, report.cost().bars().get(23).value());
        assertEquals(List.of(Instant.parse("2026-11-28T11:00:00Z"), Instant.parse("2026-11-29T10:00:00Z")),
                report.points().stream().map(Breakdowns.Point::start).toList());
        assertEquals(List.of("#7", "relay-old (archived)", "#99", "null"), report.rows("account").stream()
                .map(r -> r.name() + (r.archived() ? " (archived)" : "")).toList(), "deleted since: #id; no account: null");
        assertEquals(List.of(7L), usage.keys, "the key's own rows only");
        assertEquals(List.of(4L, 3L, 2L, 1L), report.rows("account").stream().map(r -> r.usage().requests()).toList(),
                "most requests first");
    }

    @Test
    void percentilesAreTheNearestRankOverEveryValuesHistogram() {
        GivenUsage usage = new GivenUsage();
        usage.slices = List.of(slice("a", 1L, 3, 0, 0, 0, 0, 0, 0), slice("b", 1L, 2, 0, 0, 0, 0, 0, 0));
        usage.latencies = List.of(new UsageStats.Latency("a", 100, 2), new UsageStats.Latency("a", 900, 1),
                new UsageStats.Latency("b", 200, 1), new UsageStats.Latency("b", 5000, 1));
        Breakdowns.Report report = new Breakdowns(usage, () -> NAMES).report(Breakdowns.Span.HOUR, NOW, null,
                EnumSet.of(UsageStats.Dimension.MODEL));
        // a: 100 100 900 → p50 the 2nd, p95 the 3rd; b: 200 5000; all: 100 100 200 900 5000 → 3rd and 5th
        assertEquals(List.of("a 100/900", "b 200/5000"), report.rows("model").stream()
                .map(r -> r.name() + " " + r.usage().p50LatencyMs() + "/" + r.usage().p95LatencyMs()).toList());
        assertEquals(200, report.totals().p50LatencyMs());
        assertEquals(5000, report.totals().p95LatencyMs());
        assertNull(Breakdowns.nearestRank(List.of(), 50));
    }

    @Test
    void theCacheShareCountsEveryInputSideTokenAndTheQueueAveragesThoseThatWaited() {
        GivenUsage usage = new GivenUsage();
        usage.slices = List.of(slice("a", 1L, 2, 1, 1010, 3000, 0, 1, 40), slice("b", 2L, 1, 0, 500, 0, 1000, 1, 60));
        Breakdowns.Report report = new Breakdowns(usage, () -> NAMES).report(Breakdowns.Span.HOUR, NOW, null,
                EnumSet.noneOf(UsageStats.Dimension.class));
        assertEquals(3000.0 / 5510 * 100, report.cacheReadPct(), 1e-9);
        assertEquals(50L, report.averageQueuedMs());
        GivenUsage idle = new GivenUsage();
        Breakdowns.Report none = new Breakdowns(idle, () -> NAMES).report(Breakdowns.Span.HOUR, NOW, null,
                EnumSet.noneOf(UsageStats.Dimension.class));
        assertNull(none.cacheReadPct());
        assertNull(none.averageQueuedMs());
    }
}
