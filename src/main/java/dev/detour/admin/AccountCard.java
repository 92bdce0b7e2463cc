package dev.detour.admin;

import java.time.Instant;
import java.util.List;

/**
 * One account row of the console's accounts page (U-2) with its hover panel (U-3): columns, the
 * status tag, the account cooldown badge (seconds left and the end time), the unavailable models
 * and the F-8 reminders.
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
        List<String> reminders) {

    private static final List<String> OWN_LABEL = List.of("revoked", "error", "paused");

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
                || !reminders.isEmpty();
    }

    public boolean hasPanel() {
        return !unavailableModels.isEmpty() || !reminders.isEmpty();
    }
}
