package dev.detour.adapter.db;

import java.time.Instant;

/**
 * Keyset page of request events, newest first: rows with id &lt; beforeId (null = from the top),
 * filtered by any of key, account, group, model, outcome, status and a created_at range [from, to).
 */
public record EventQuery(Long keyId, Long accountId, Long groupId, String model, String outcome, Integer status,
        Instant from, Instant to, Long beforeId, int limit) {

    /** The admin API's original filter set. */
    public EventQuery(Long keyId, Long accountId, String model, String outcome, Long beforeId, int limit) {
        this(keyId, accountId, null, model, outcome, null, null, null, beforeId, limit);
    }
}
