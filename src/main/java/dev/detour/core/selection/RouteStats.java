package dev.detour.core.selection;

/**
 * Real-traffic facts of one (account, model key) route over the recent window, as the gateway
 * measured them (probe results are not counted — seed smart-router §8.2). {@code p95TtftMs} is
 * null when no first-token time was measured; {@code ttftSamples} says how many stand behind it.
 */
public record RouteStats(long successes, long failures, Long p95TtftMs, long ttftSamples) {

    public RouteStats {
        if (successes < 0 || failures < 0 || ttftSamples < 0) {
            throw new IllegalArgumentException("route stats cannot be negative");
        }
    }

    public static RouteStats outcomes(long successes, long failures) {
        return new RouteStats(successes, failures, null, 0);
    }

    public static RouteStats ttft(long p95Ms, long samples) {
        return new RouteStats(0, 0, p95Ms, samples);
    }

    /**
     * S-3 {@code stability}: the success rate with one success and one failure added (Laplace), in
     * ppm — an unknown route scores 0.5, a route proven by many successes beats one lucky request.
     */
    public static long smoothedSuccessPpm(RouteStats stats) {
        long ok = stats == null ? 0 : stats.successes;
        long total = stats == null ? 0 : stats.successes + stats.failures;
        return Ppm.ratio(ok + 1, total + 2);
    }

    /** S-3 {@code latency}: true when the p95 stands on at least {@code minSamples} measurements. */
    public static boolean latencyKnown(RouteStats stats, int minSamples) {
        return stats != null && stats.p95TtftMs != null && stats.ttftSamples >= Math.max(1, minSamples);
    }

    static long samples(RouteStats stats) {
        return stats == null ? 0 : stats.ttftSamples;
    }
}
