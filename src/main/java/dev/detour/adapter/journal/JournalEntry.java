package dev.detour.adapter.journal;

import dev.detour.gateway.port.RequestEvent;

/**
 * One journal record. {@code STARTED} (D-5) holds the event to log if the process dies before the
 * request ends (outcome failure, {@code detour.interrupted}); {@code FINISHED} is the request's real event.
 */
public record JournalEntry(Kind kind, RequestEvent event) {
    public enum Kind { STARTED, FINISHED }
}
