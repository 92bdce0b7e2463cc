package dev.detour.adapter.db;

import java.time.Instant;

/** One row of the R-3 candidate query; {@code hasModelFailures} is an EXISTS column, not the rows. */
public record RecoveryCandidateRow(long id, String status, Instant nextRetryAt, Instant cooldownUntil,
        boolean hasModelFailures, String recoveryJson) {
}
