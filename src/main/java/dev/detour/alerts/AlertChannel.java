package dev.detour.alerts;

import dev.detour.core.alerts.AlertKind;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * W-1: one place alerts go. {@code events} empty = every event. {@code secrets} holds the opened
 * secret fields (only the dispatcher and the senders see them); {@code secretHints} their masked
 * tails, which is all pages, the API, the audit log and the logs ever get.
 */
public record AlertChannel(long id, String name, ChannelKind kind, boolean enabled, Set<AlertKind> events,
        Duration suppress, Map<String, String> settings, Map<String, String> secrets,
        Map<String, String> secretHints) {

    public boolean takes(AlertKind event) {
        return enabled && (events.isEmpty() || events.contains(event));
    }

    public String setting(String field) {
        return settings.get(field);
    }

    public String secret(String field) {
        return secrets.get(field);
    }
}
