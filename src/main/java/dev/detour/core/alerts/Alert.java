package dev.detour.core.alerts;

import java.time.Instant;

/**
 * W-1: one pool event worth telling an operator. {@code object} names what it is about in a stable
 * form ({@code account:7}, {@code model:7:gpt-5}, {@code group:2}, {@code key:4}, {@code database}) so
 * suppression can count per (event, object); {@code title} and {@code text} are what people read and
 * never hold a secret (names, ids, statuses only).
 */
public record Alert(AlertKind kind, String object, String title, String text, Instant at) {
}
