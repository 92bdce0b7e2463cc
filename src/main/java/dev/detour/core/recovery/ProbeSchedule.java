package dev.detour.core.recovery;

import java.time.Duration;
import java.time.Instant;

/** R-3 healthcheck: a probe is due when none ran yet (restart restarts the clock) or the interval passed. */
public final class ProbeSchedule {
    private ProbeSchedule() {
    }

    public static boolean due(Instant lastProbe, int intervalMinutes, Instant now) {
        return lastProbe == null || !now.isBefore(lastProbe.plus(Duration.ofMinutes(intervalMinutes)));
    }
}
