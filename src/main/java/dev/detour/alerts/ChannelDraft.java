package dev.detour.alerts;

import java.util.List;
import java.util.Map;

/**
 * W-1: a channel as the console or the API sends it. Null = not given (on an update: keep what is
 * stored). {@code fields} holds the kind's settings and secrets by name; an empty value removes one.
 */
public record ChannelDraft(String name, String kind, Boolean enabled, List<String> events, Integer suppressSeconds,
        Map<String, String> fields) {
}
