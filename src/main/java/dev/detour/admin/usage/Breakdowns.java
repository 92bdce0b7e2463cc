package dev.detour.admin.usage;

import dev.detour.admin.port.EventNames;
import dev.detour.admin.port.UsageStats;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * U-8 dashboard breakdowns and U-9 a key holder's usage: over a chosen window, the totals, charts over time (requests,
 * errors, tokens, cost) and per model / key / account / group lines with names. Aggregated in SQL by
 * {@link UsageStats} into few rows, added up here; the windows are bounded (at most 30 days) and end at the next step boundary, so a chart's
 * last bar is the one now filling.
 */
public final class Breakdowns {
    /** A window the selector offers: its length and the chart's step. */
    public enum Span {
        HOUR("1h", Duration.ofHours(1), Duration.ofMinutes(1)),
        DAY("24h", Duration.ofDays(1), Duration.ofHours(1)),
        WEEK("7d", Duration.ofDays(7), Duration.ofHours(6)),
        MONTH("30d", Duration.ofDays(30), Duration.ofDays(1));

        private final String wire;
        private final Duration length;
        private final Duration step;

        Span(String wire, Duration length, Duration step) {
            this.wire = wire;
            this.length = length;
            this.step = step;
        }

        public String wire() {
            return wire;
        }

        public Duration step() {
            return step;
        }

        int slots() {
            return (int) (length.getSeconds() / step.getSeconds());
        }

        /** The span named {@code wire} ("1h", "24h", "7d", "30d"), or empty. */
        public static Optional<Span> of(String wire) {
            for (Span s : values()) {
                if (s.wire.equals(wire)) {
                    return Optional.of(s);
                }
            }
            return Optional.empty();
        }
    }

    /** A line of a breakdown with its display name ({@code id} null for models; {@code name} null for "none"). */
    public record Row(Long id, String name, boolean archived, UsageStats.Line usage) {
    }

    /** A non-empty bucket of the window: its start and its sums. */
    public record Point(Instant start, UsageStats.Bucket sums) {
    }

    /**
     * {@code cacheReadPct}: cache reads as a share of every input-side token (input + cache reads + cache writes),
     * null without input; {@code averageQueuedMs}: L-2's mean wait of those that waited, null when none did.
     */
    public record Report(Span span, Instant since, Instant until, UsageStats.Line totals, Double cacheReadPct,
            Long averageQueuedMs, TimeChart requests, TimeChart errors, TimeChart tokens, TimeChart cost,
            List<Point> points, Map<UsageStats.Dimension, List<Row>> by) {
        public List<Row> rows(String dimension) {
            return by.getOrDefault(UsageStats.Dimension.valueOf(dimension.toUpperCase(java.util.Locale.ROOT)), List.of());
        }
    }

    private final UsageStats usage;
    private final EventNames.Source names;

    public Breakdowns(UsageStats usage, EventNames.Source names) {
        this.usage = usage;
        this.names = names;
    }

    /** The window ending at the step boundary after {@code now}, for {@code keyId} (null: every key). */
    public Report report(Span span, Instant now, Long keyId, Set<UsageStats.Dimension> dimensions) {
        long step = span.step().getSeconds();
        Instant until = Instant.ofEpochSecond(Math.floorDiv(now.getEpochSecond(), step) * step + step);
        Instant since = until.minus(span.length);
        List<UsageStats.Slice> slices = usage.slices(since, until, keyId);
        List<UsageStats.Latency> byModel = usage.latencies(UsageStats.Dimension.MODEL, since, until, keyId);
        UsageStats.Line totals = lines(slices, s -> "", byModel.stream()
                .map(l -> new UsageStats.Latency("", l.latencyMs(), l.count()))
                .sorted(Comparator.comparingInt(UsageStats.Latency::latencyMs)).toList()).stream().findFirst()
                .map(l -> new UsageStats.Line(null, l.requests(), l.errors(), l.inputTokens(), l.outputTokens(),
                        l.cacheReadTokens(), l.cacheWriteTokens(), l.costMicros(), l.p50LatencyMs(), l.p95LatencyMs(),
                        l.queued(), l.queuedMs()))
                .orElse(new UsageStats.Line(null, 0, 0, 0, 0, 0, 0, 0, null, null, 0, 0));
        long[] requests = new long[span.slots()];
        long[] errors = new long[span.slots()];
        long[] tokens = new long[span.slots()];
        long[] cost = new long[span.slots()];
        List<Point> points = new ArrayList<>();
        for (UsageStats.Bucket b : usage.series(since, until, step, keyId)) {
            if (b.bucket() >= 0 && b.bucket() < span.slots()) {
                int i = (int) b.bucket();
                requests[i] = b.requests();
                errors[i] = b.errors();
                tokens[i] = b.tokens();
                cost[i] = b.costMicros();
                points.add(new Point(since.plus(span.step().multipliedBy(i)), b));
            }
        }
        EventNames known = dimensions.stream().anyMatch(d -> d != UsageStats.Dimension.MODEL) ? names.all() : EventNames.NONE;
        Map<UsageStats.Dimension, List<Row>> by = new EnumMap<>(UsageStats.Dimension.class);
        for (UsageStats.Dimension d : dimensions) {
            List<UsageStats.Latency> latencies = d == UsageStats.Dimension.MODEL ? byModel
                    : usage.latencies(d, since, until, keyId);
            by.put(d, lines(slices, s -> valueOf(d, s), latencies).stream().map(line -> row(d, line, known)).toList());
        }
        long inputSide = totals.inputTokens() + totals.cacheReadTokens() + totals.cacheWriteTokens();
        return new Report(span, since, until, totals, inputSide == 0 ? null : 100.0 * totals.cacheReadTokens() / inputSide,
                totals.queued() == 0 ? null : totals.queuedMs() / totals.queued(),
                TimeChart.of(requests, since, span.step(), TimeChart.Unit.REQUESTS),
                TimeChart.of(errors, since, span.step(), TimeChart.Unit.REQUESTS),
                TimeChart.of(tokens, since, span.step(), TimeChart.Unit.TOKENS),
                TimeChart.of(cost, since, span.step(), TimeChart.Unit.MONEY), List.copyOf(points), by);
    }

    /** The slices added up by the value {@code valueOf} gives each, most requests first, with their percentiles. */
    static List<UsageStats.Line> lines(List<UsageStats.Slice> slices, Function<UsageStats.Slice, String> valueOf,
            List<UsageStats.Latency> latencies) {
        Map<String, long[]> sums = new HashMap<>();
        for (UsageStats.Slice s : slices) {
            long[] t = sums.computeIfAbsent(valueOf.apply(s), v -> new long[9]);
            long[] add = {s.requests(), s.errors(), s.inputTokens(), s.outputTokens(), s.cacheReadTokens(),
                s.cacheWriteTokens(), s.costMicros(), s.queued(), s.queuedMs()};
            for (int i = 0; i < add.length; i++) {
                t[i] += add[i];
            }
        }
        Map<String, List<UsageStats.Latency>> histograms = new HashMap<>();
        latencies.forEach(l -> histograms.computeIfAbsent(l.value(), v -> new ArrayList<>()).add(l));
        List<UsageStats.Line> lines = new ArrayList<>();
        sums.forEach((value, t) -> {
            List<UsageStats.Latency> histogram = histograms.getOrDefault(value, List.of());
            lines.add(new UsageStats.Line(value, t[0], t[1], t[2], t[3], t[4], t[5], t[6],
                    nearestRank(histogram, 50), nearestRank(histogram, 95), t[7], t[8]));
        });
        lines.sort(Comparator.comparingLong(UsageStats.Line::requests).reversed()
                .thenComparing(UsageStats.Line::value, Comparator.nullsLast(Comparator.naturalOrder())));
        return lines;
    }

    /** The ⌈p·n⌉-th smallest latency of a histogram in latency order (nearest rank); null when it is empty. */
    static Integer nearestRank(List<UsageStats.Latency> histogram, int p) {
        long n = histogram.stream().mapToLong(UsageStats.Latency::count).sum();
        long rank = (long) Math.ceil(p / 100.0 * n);
        long seen = 0;
        for (UsageStats.Latency l : histogram) {
            seen += l.count();
            if (seen >= rank) {
                return n == 0 ? null : l.latencyMs();
            }
        }
        return null;
    }

    private static String valueOf(UsageStats.Dimension d, UsageStats.Slice s) {
        Object value = switch (d) {
            case MODEL -> s.model();
            case KEY -> s.keyId();
            case ACCOUNT -> s.accountId();
            case GROUP -> s.groupId();
        };
        return value == null ? null : value.toString();
    }

    private static Row row(UsageStats.Dimension d, UsageStats.Line line, EventNames known) {
        if (d == UsageStats.Dimension.MODEL || line.value() == null) {
            return new Row(null, line.value(), false, line);
        }
        long id = Long.parseLong(line.value());
        Map<Long, EventNames.Named> names = switch (d) {
            case KEY -> known.keys();
            case ACCOUNT -> known.accounts();
            default -> known.groups();
        };
        EventNames.Named named = names.get(id);
        return new Row(id, EventNames.nameOf(names, id), named != null && named.archived(), line);
    }
}
