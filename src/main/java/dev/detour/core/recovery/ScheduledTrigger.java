package dev.detour.core.recovery;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;

/**
 * R-3 scheduled mode: fires when a configured local time lies in the half-open interval
 * (previous tick, this tick], enumerating the dates in between — so a tick across midnight fires
 * a configured 00:00, and a machine asleep for days fires once (a yes/no answer, never a count).
 */
public final class ScheduledTrigger {
    /** Enough to cover any interval: after this many days every configured time has certainly passed. */
    private static final int MAX_DAYS = 2;

    private ScheduledTrigger() {
    }

    public static boolean fires(List<LocalTime> times, LocalDateTime previousTick, LocalDateTime thisTick) {
        if (times.isEmpty() || previousTick == null || !thisTick.isAfter(previousTick)) {
            return false;
        }
        LocalDate first = previousTick.toLocalDate();
        LocalDate last = thisTick.toLocalDate();
        if (first.plusDays(MAX_DAYS).isBefore(last)) {
            return true; // a whole day lies inside the interval: every time of day occurred in it
        }
        for (LocalDate day = first; !day.isAfter(last); day = day.plusDays(1)) {
            for (LocalTime time : times) {
                LocalDateTime at = day.atTime(time);
                if (at.isAfter(previousTick) && !at.isAfter(thisTick)) {
                    return true;
                }
            }
        }
        return false;
    }
}
