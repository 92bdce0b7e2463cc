package dev.detour.adapter.db;

/** One bucket of one key's L-1 count as key_limit_counts stores it ({@code kind}: the limit's header suffix). */
public record KeyLimitCountRow(long keyId, String kind, long bucket, long amount) {
}
