package dev.detour.admin.usage;

import dev.detour.admin.port.RequestStats;
import dev.detour.core.account.Account;
import dev.detour.core.account.ModelState;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.gateway.live.WaitQueue;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The console home (U-5): request rate, success rate, latency/TTFT percentiles, tokens and cost
 * for the last hour and day (SQL over request_events on the created_at index), plus the pool's
 * current picture from the in-memory snapshot: accounts by state, unavailable models, top failing accounts.
 */
public final class Dashboard {
    public record Window(String name, long requests, double requestsPerMinute, Double successRatePct,
            Integer p50LatencyMs, Integer p95LatencyMs, Integer p50TtftMs, Integer p95TtftMs, long tokens,
            long costMicros, SvgChart requestsChart, SvgChart tokensChart) {
        public String latencyText() {
            return pair(p50LatencyMs, p95LatencyMs);
        }

        public String ttftText() {
            return pair(p50TtftMs, p95TtftMs);
        }

        private static String pair(Integer p50, Integer p95) {
            return (p50 == null ? "—" : p50) + " / " + (p95 == null ? "—" : p95) + " ms";
        }

        public String cost() {
            return String.format(java.util.Locale.ROOT, "%.4f", costMicros / 1_000_000.0);
        }
    }

    public record UnavailableModel(long accountId, String accountName, String modelKey, String status,
            long remainingSeconds, String lastFailureKind, String lastFailureMessage) {
        public String failureText() {
            return ((lastFailureKind == null ? "" : lastFailureKind) + " "
                    + (lastFailureMessage == null ? "" : lastFailureMessage)).trim();
        }
    }

    public record FailingAccount(long accountId, String accountName, long failures, Instant lastAt,
            String lastErrorCode, String lastFailureMessage) {
    }

    /** {@code queue}: L-2's wait queue on this instance. */
    public record Summary(Instant asOf, Window hour, Window day, Map<String, Long> accountsByState,
            List<UnavailableModel> unavailableModels, List<FailingAccount> topFailing, WaitQueue.Figures queue) {
    }

    private static final DateTimeFormatter HH_MM = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);

    private final RequestStats stats;
    private final PoolSnapshot snapshot;
    private final Supplier<WaitQueue.Figures> queue;

    public Dashboard(RequestStats stats, PoolSnapshot snapshot, Supplier<WaitQueue.Figures> queue) {
        this.stats = stats;
        this.snapshot = snapshot;
        this.queue = queue;
    }

    public Summary summary(Instant now) {
        Instant end = now.truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1));
        Window hour = window("hour", end.minus(Duration.ofHours(1)), end, 60, false);
        Instant dayEnd = now.truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(1));
        Window day = window("day", dayEnd.minus(Duration.ofDays(1)), dayEnd, 24, true);
        PoolSnapshot.View view = snapshot.view();
        return new Summary(now, hour, day, accountsByState(view, now), unavailable(view, now),
                topFailing(view, end.minus(Duration.ofDays(1)), end), queue.get());
    }

    /** One window of {@code slots} buckets (minutes or hours) ending at {@code until} (exclusive). */
    Window window(String name, Instant since, Instant until, int slots, boolean hourly) {
        RequestStats.WindowStats w = stats.window(since, until, hourly);
        RequestStats.Bucket totals = w.totals();
        long[] requests = new long[slots];
        long[] tokens = new long[slots];
        for (RequestStats.Bucket b : w.buckets()) {
            if (b.bucket() >= 0 && b.bucket() < slots) {
                requests[(int) b.bucket()] = b.requests();
                tokens[(int) b.bucket()] = b.tokens();
            }
        }
        List<String> labels = new ArrayList<>(slots);
        for (int i = 0; i < slots; i++) {
            labels.add(HH_MM.format(since.plus(hourly ? Duration.ofHours(i) : Duration.ofMinutes(i))));
        }
        double minutes = Duration.between(since, until).toMinutes();
        Double successPct = totals.requests() == 0 ? null : 100.0 * totals.successes() / totals.requests();
        return new Window(name, totals.requests(), totals.requests() / minutes, successPct,
                w.p50LatencyMs(), w.p95LatencyMs(), w.p50TtftMs(), w.p95TtftMs(),
                totals.tokens(), totals.costMicros(), SvgChart.bars(requests, labels), SvgChart.bars(tokens, labels));
    }

    static Map<String, Long> accountsByState(PoolSnapshot.View view, Instant now) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String state : List.of("ok", "warning", "error", "revoked", "paused", "config_error", "cooling", "disabled")) {
            counts.put(state, 0L);
        }
        for (Account a : view.accounts()) {
            counts.merge(a.shownStatus(), 1L, Long::sum); // D-4: config_error over the stored status
            Instant blocked = a.failure().blockedUntil();
            if (blocked != null && blocked.isAfter(now)) {
                counts.merge("cooling", 1L, Long::sum);
            }
            if (!a.enabled()) {
                counts.merge("disabled", 1L, Long::sum);
            }
        }
        return counts;
    }

    static List<UnavailableModel> unavailable(PoolSnapshot.View view, Instant now) {
        List<UnavailableModel> list = new ArrayList<>();
        for (ModelState m : view.models().values()) {
            if (m.unavailableAt(now)) {
                Account a = view.byId().get(m.accountId());
                long remaining = m.coolingAt(now) ? Duration.between(now, m.cooldownUntil()).toSeconds() : 0;
                list.add(new UnavailableModel(m.accountId(), a == null ? "#" + m.accountId() : a.name(), m.modelKey(),
                        m.coolingAt(now) && m.status().name().equals("OK") ? "cooling" : m.status().name().toLowerCase(),
                        remaining, m.lastFailureKind(), m.lastFailureMessage()));
            }
        }
        list.sort(Comparator.comparing(UnavailableModel::accountName).thenComparing(UnavailableModel::modelKey));
        return list;
    }

    List<FailingAccount> topFailing(PoolSnapshot.View view, Instant since, Instant until) {
        List<RequestStats.FailingAccountCount> rows = stats.topFailing(since, until, 5);
        return rows.stream().map(r -> {
            Account a = view.byId().get(r.accountId());
            return new FailingAccount(r.accountId(), a == null ? "#" + r.accountId() : a.name(), r.failures(),
                    r.lastAt(), r.lastErrorCode() == null || r.lastErrorCode().isEmpty() ? null : r.lastErrorCode(),
                    a == null ? null : a.failure().lastFailureMessage());
        }).toList();
    }
}
