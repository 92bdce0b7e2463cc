package dev.detour.adapter.db;

import java.time.Instant;

/** An account with failed requests in a window: how many, when last, and the last error code. */
public record FailingAccountRow(long accountId, long failures, Instant lastAt, String lastErrorCode) {
}
