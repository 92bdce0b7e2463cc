package dev.detour.core.cooldown;

import dev.detour.core.account.ModelState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** C-7: per account, the models currently cooling because of a rate limit (429). */
public final class RateLimitLedger {
    private RateLimitLedger() {
    }

    /**
     * One ledger line.
     *
     * @param until   the (capped) cooldown end
     * @param resetAt the upstream's uncapped reset moment, or null when it equals {@code until}
     * @param reason  the row's last failure message
     */
    public record Entry(String model, Instant until, Instant resetAt, String reason) {
    }

    /** Rows still cooling at {@code now} whose cooldown was written by a 429 (rate_limit_reset_at set). */
    public static List<Entry> of(List<ModelState> rows, Instant now) {
        List<Entry> entries = new ArrayList<>();
        for (ModelState row : rows) {
            if (row.coolingAt(now) && row.rateLimitResetAt() != null) {
                Instant resetAt = row.rateLimitResetAt().equals(row.cooldownUntil()) ? null : row.rateLimitResetAt();
                entries.add(new Entry(row.modelKey(), row.cooldownUntil(), resetAt, row.lastFailureMessage()));
            }
        }
        return entries;
    }
}
