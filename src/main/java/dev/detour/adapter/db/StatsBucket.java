package dev.detour.adapter.db;

/** Request counts, tokens and cost of one time bucket (bucket = minutes or hours since the window start). */
public record StatsBucket(long bucket, long requests, long successes, long tokens, long costMicros) {
}
