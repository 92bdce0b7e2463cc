package dev.detour.admin.port;

import dev.detour.core.attempt.QueueLimits;
import dev.detour.core.selection.SelectionSettings;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** A validated, complete set of runtime settings: every {@link SettingField} has a value in range. */
public record SettingValues(Map<String, Long> values) {
    public SettingValues {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public static SettingValues defaults() {
        Map<String, Long> map = new LinkedHashMap<>();
        SettingField.ALL.forEach(f -> map.put(f.name(), f.defaultValue()));
        return new SettingValues(map);
    }

    /** The defaults, with the P-4 timeouts from the environment (DETOUR_*_TIMEOUT_SECONDS). */
    public static SettingValues defaults(Duration connectTimeout, Duration readTimeout) {
        Map<String, Long> map = new LinkedHashMap<>(defaults().values());
        // settings hold whole seconds; round a sub-second value up rather than to 0 (= no timeout at all)
        map.put(SettingField.CONNECT_TIMEOUT.name(), wholeSecondsAtLeastOne(connectTimeout));
        map.put(SettingField.READ_TIMEOUT.name(), wholeSecondsAtLeastOne(readTimeout));
        return new SettingValues(map);
    }

    public long get(SettingField field) {
        return values.getOrDefault(field.name(), field.defaultValue());
    }

    private static long wholeSecondsAtLeastOne(Duration d) {
        long seconds = d.toSeconds() + (d.toNanosPart() > 0 ? 1 : 0);
        return Math.max(1, seconds);
    }

    public Duration connectTimeout() {
        return Duration.ofSeconds(get(SettingField.CONNECT_TIMEOUT));
    }

    public Duration readTimeout() {
        return Duration.ofSeconds(get(SettingField.READ_TIMEOUT));
    }

    public int probeBudgetPerMinute() {
        return (int) get(SettingField.PROBE_BUDGET);
    }

    public int probeConcurrency() {
        return (int) get(SettingField.PROBE_CONCURRENCY);
    }

    public Duration stickyTtl() {
        return Duration.ofSeconds(get(SettingField.STICKY_TTL));
    }

    public int retentionDays() {
        return (int) get(SettingField.RETENTION_DAYS);
    }

    /** L-2: the wait queue's bounds. */
    public QueueLimits queueLimits() {
        return QueueLimits.of(get(SettingField.QUEUE_WAIT), get(SettingField.QUEUE_MAX_LENGTH));
    }

    /** The S-1/S-4 part selection reads. */
    public SelectionSettings selection() {
        return SelectionSettings.DEFAULTS
                .withRatioCeilings(get(SettingField.DEFAULT_MAX_RATIO), get(SettingField.ABSOLUTE_MAX_RATIO))
                .withIdleBonus(get(SettingField.IDLE_BONUS_PER_HOUR), get(SettingField.IDLE_BONUS_MAX));
    }
}
