package dev.detour.core.account;

import dev.detour.core.ValidationException;
import java.time.LocalTime;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Per-account recovery rule (SPEC R-2): off (default), scheduled local times, or healthcheck. */
public sealed interface RecoveryRule {
    RecoveryRule OFF = new Off();

    record Off() implements RecoveryRule {
    }

    /** Times normalized: zero-padded HH:MM, de-duplicated, sorted. */
    record Scheduled(List<LocalTime> times) implements RecoveryRule {
        public Scheduled {
            times = List.copyOf(times);
        }

        public List<String> wireTimes() {
            return times.stream().map(t -> String.format("%02d:%02d", t.getHour(), t.getMinute())).toList();
        }
    }

    record Healthcheck(int probeIntervalMinutes) implements RecoveryRule {
        public static final int DEFAULT_MINUTES = 30;

        public Healthcheck {
            if (probeIntervalMinutes < 1 || probeIntervalMinutes > 1440) {
                throw new ValidationException("validation.recovery_probe_interval", "recovery.probe_interval_minutes",
                        "probe_interval_minutes must be between 1 and 1440, got " + probeIntervalMinutes);
            }
        }
    }

    Pattern TIME = Pattern.compile("(\\d{1,2}):(\\d{2})");

    /** Parses and normalizes {@code 3:00} → {@code 03:00}; none → recovery_times_required. */
    static Scheduled scheduled(List<String> rawTimes) {
        if (rawTimes == null || rawTimes.isEmpty()) {
            throw new ValidationException("validation.recovery_times_required", "recovery.times",
                    "scheduled recovery needs at least one time");
        }
        TreeSet<LocalTime> times = new TreeSet<>();
        for (String raw : rawTimes) {
            Matcher m = raw == null ? null : TIME.matcher(raw.trim());
            if (m == null || !m.matches()) {
                throw badTime(raw);
            }
            int hour = Integer.parseInt(m.group(1));
            int minute = Integer.parseInt(m.group(2));
            if (hour > 23 || minute > 59) {
                throw badTime(raw);
            }
            times.add(LocalTime.of(hour, minute));
        }
        return new Scheduled(List.copyOf(times));
    }

    default String mode() {
        if (this instanceof Scheduled) {
            return "scheduled";
        }
        return this instanceof Healthcheck ? "healthcheck" : "off";
    }

    private static ValidationException badTime(String raw) {
        return new ValidationException("validation.recovery_times", "recovery.times",
                "recovery times are HH:MM (00:00–23:59), got '" + raw + "'");
    }
}
