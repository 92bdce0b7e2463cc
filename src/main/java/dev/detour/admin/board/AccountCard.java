package dev.detour.admin.board;

import java.time.Instant;
import java.util.List;

/**
 * One account row of the console's accounts page (U-2) with its hover panel (U-3): columns, the
 * status tag, the account cooldown badge (seconds left and the end time), the unavailable models
 * the F-8 reminders and the C-6 breaker / backoff state (its own badge). {@code configError}: why the
 * stored row could not be read (D-4), or null; the status is then {@code config_error}.
 */
public record AccountCard(
        long id,
        String name,
        String group,
        String groupColor,
        String platform,
        int priority,
        int weight,
        boolean enabled,
        String status,
        int transientFailures,
        int inFlight,
        int maxInFlight,
        Instant lastUsedAt,
        Integer successRatePercent,
        long cooldownSeconds,
        Instant cooldownUntil,
        List<ModelLine> unavailableModels,
        List<String> reminders,
        Protection protection,
        String configError) {

    public AccountCard(long id, String name, String group, String groupColor, String platform, int priority,
            int weight, boolean enabled, String status, int transientFailures, int inFlight, int maxInFlight,
            Instant lastUsedAt, Integer successRatePercent, long cooldownSeconds, Instant cooldownUntil,
            List<ModelLine> unavailableModels, List<String> reminders, Protection protection) {
        this(id, name, group, groupColor, platform, priority, weight, enabled, status, transientFailures, inFlight,
                maxInFlight, lastUsedAt, successRatePercent, cooldownSeconds, cooldownUntil, unavailableModels,
                reminders, protection, null);
    }

    /**
     * C-6 as the board shows it: seconds the breaker stays open (0 = closed), half-open (the open
     * time has passed and the next request is the single trial) and the exponential backoff streak.
     */
    public record Protection(long breakerSeconds, boolean breakerHalfOpen, int backoffStreak) {
        public static final Protection NONE = new Protection(0, false, 0);

        public boolean any() {
            return breakerSeconds > 0 || breakerHalfOpen || backoffStreak > 0;
        }
    }

    private static final List<String> OWN_LABEL = List.of("revoked", "error", "paused", "config_error");

    /** U-2: `错误 N 次` while the transient count is above 0; revoked / error / paused keep their own label. */
    public boolean showsErrorCount() {
        return transientFailures > 0 && !OWN_LABEL.contains(status);
    }

    public int unavailableCount() {
        return unavailableModels.size();
    }

    /** Anything an operator may want to look at: the "only problems" filter. */
    public boolean problem() {
        return !"ok".equals(status) || transientFailures > 0 || cooldownSeconds > 0 || !unavailableModels.isEmpty()
                || !reminders.isEmpty() || protection.any();
    }

    public boolean hasPanel() {
        return !unavailableModels.isEmpty() || !reminders.isEmpty();
    }
}
