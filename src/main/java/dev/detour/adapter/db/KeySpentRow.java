package dev.detour.adapter.db;

/** A key's accumulated spend in micros (K-2). */
public record KeySpentRow(long id, long spentMicros) {
}
