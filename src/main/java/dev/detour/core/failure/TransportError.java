package dev.detour.core.failure;

/** A transport-level fact: no HTTP status. The message names the ceiling for timeouts (P-4). */
public record TransportError(TransportErrorType type, String message) {
}
