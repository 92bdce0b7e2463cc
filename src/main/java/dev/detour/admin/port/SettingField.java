package dev.detour.admin.port;

import java.util.List;

/** One runtime setting (SPEC GET/PUT /admin/api/settings): wire name, inclusive range, default. */
public record SettingField(String name, long min, long max, long defaultValue) {
    public static final SettingField CONNECT_TIMEOUT = new SettingField("connect_timeout_seconds", 1, 300, 20);
    public static final SettingField READ_TIMEOUT = new SettingField("read_timeout_seconds", 1, 3600, 180);
    public static final SettingField PROBE_BUDGET = new SettingField("probe_budget_per_minute", 0, 600, 30);
    public static final SettingField PROBE_CONCURRENCY = new SettingField("probe_concurrency", 1, 64, 3);
    /** S-6: 30 min by default; 0 turns stickiness off. */
    public static final SettingField STICKY_TTL = new SettingField("sticky_ttl_seconds", 0, 86_400, 1_800);
    public static final SettingField IDLE_BONUS_PER_HOUR = new SettingField("idle_bonus_per_hour_ppm", 0, 10_000_000, 500_000);
    public static final SettingField IDLE_BONUS_MAX = new SettingField("idle_bonus_max_ppm", 0, 100_000_000, 5_000_000);
    public static final SettingField DEFAULT_MAX_RATIO = new SettingField("default_max_ratio_ppm", 0, 100_000_000, 0);
    public static final SettingField ABSOLUTE_MAX_RATIO = new SettingField("absolute_max_ratio_ppm", 0, 100_000_000, 0);
    /** L-2: how long a request waits for a full route; 0 = no queue (S-5's immediate 503). */
    public static final SettingField QUEUE_WAIT = new SettingField("queue_wait_seconds", 0, 600, 30);
    /**
     * L-2: waiting requests per model. 100 by default: on Java 17 each waiter parks one of Jetty's 2,048
     * worker threads, so a few busy models cannot starve the streams and new requests of threads; and a
     * deeper queue than the pool drains within the wait bound only makes clients wait for the same 503.
     */
    public static final SettingField QUEUE_MAX_LENGTH = new SettingField("queue_max_length", 0, 1_000, 100);
    public static final SettingField RETENTION_DAYS = new SettingField("retention_days", 1, 3_650, 30);

    /** Every setting, in the order the settings page shows them. */
    public static final List<SettingField> ALL = List.of(CONNECT_TIMEOUT, READ_TIMEOUT, PROBE_BUDGET, PROBE_CONCURRENCY,
            STICKY_TTL, IDLE_BONUS_PER_HOUR, IDLE_BONUS_MAX, DEFAULT_MAX_RATIO, ABSOLUTE_MAX_RATIO, QUEUE_WAIT,
            QUEUE_MAX_LENGTH, RETENTION_DAYS);

    public String errorCode() {
        return "validation.settings." + name;
    }

    public static SettingField named(String name) {
        return ALL.stream().filter(f -> f.name.equals(name)).findFirst().orElse(null);
    }
}
