package dev.detour.adapter.db;

/** Keyset page of request events, newest first: rows with id < beforeId (null = from the top). */
public record EventQuery(Long keyId, Long accountId, String model, String outcome, Long beforeId, int limit) {
}
