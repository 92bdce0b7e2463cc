package dev.detour.core.alerts;

import java.util.Map;

/**
 * W-1: the part of the pool that alerts watch, as plain values: accounts by id, model rows in error,
 * groups, keys with a spend limit and their rolling spend windows. Two pictures compared by {@link PoolAlerts} give the events.
 */
public record PoolPicture(Map<Long, AccountMark> accounts, Map<String, ModelMark> erroredModels,
        Map<Long, GroupMark> groups, Map<Long, KeyMark> keys, Map<String, WindowMark> spendWindows) {

    /** Without spend windows. */
    public PoolPicture(Map<Long, AccountMark> accounts, Map<String, ModelMark> erroredModels,
            Map<Long, GroupMark> groups, Map<Long, KeyMark> keys) {
        this(accounts, erroredModels, groups, keys, Map.of());
    }

    /** {@code shownStatus} as pages show it (ok, warning, error, revoked, paused, config_error). */
    public record AccountMark(String name, long groupId, String shownStatus, boolean usable) {
    }

    /** A model row in error: {@code object} is {@code model:<account>:<model key>}. */
    public record ModelMark(long accountId, String accountName, String modelKey) {
    }

    public record GroupMark(String name, boolean halted) {
    }

    /** A key with a lifetime spend limit and what it has spent (micros). */
    public record KeyMark(String name, long spentMicros, long limitMicros) {
        /** 0 below 80 %, 80 from 80 %, 100 at or past the limit. */
        public int spendStep() {
            if (limitMicros <= 0 || spentMicros >= limitMicros) {
                return 100;
            }
            return spentMicros * 5 >= limitMicros * 4 ? 80 : 0;
        }
    }

    /**
     * L-1: a key's spend in one rolling window (micros) against that window's limit; {@code object} is
     * {@code key:<id>:<window>} with the policy's window name (5h, day, week, month).
     */
    public record WindowMark(long keyId, String keyName, String window, long spentMicros, long limitMicros) {
        /** 0 below 80 %, 80 from 80 %, 100 at or past the limit: as {@link KeyMark#spendStep()}. */
        public int spendStep() {
            return new KeyMark(keyName, spentMicros, limitMicros).spendStep();
        }
    }

    public static PoolPicture empty() {
        return new PoolPicture(Map.of(), Map.of(), Map.of(), Map.of());
    }
}
