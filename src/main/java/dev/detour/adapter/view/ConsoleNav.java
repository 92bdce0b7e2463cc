package dev.detour.adapter.view;

import java.util.List;
import java.util.Set;

/**
 * The console's navigation (U-1). Screens that are not built yet are listed but not linked;
 * add a path to {@code available} when its servlet is wired in.
 */
public final class ConsoleNav {
    /** One entry: message key suffix ({@code nav.<key>}), path, whether it is a live link. */
    public record Item(String key, String path, boolean available) {
    }

    private static final List<String[]> ENTRIES = List.of(
            new String[] {"dashboard", "/"},
            new String[] {"accounts", "/accounts"},
            new String[] {"groups", "/groups"},
            new String[] {"keys", "/keys"},
            new String[] {"requests", "/requests"},
            new String[] {"recovery", "/recovery"},
            new String[] {"audit", "/audit"},
            new String[] {"settings", "/settings"},
            new String[] {"instances", "/instances"},
            new String[] {"alerts", "/alerts"});

    private final List<Item> items;

    public ConsoleNav(Set<String> availablePaths) {
        this.items = ENTRIES.stream()
                .map(e -> new Item(e[0], e[1], availablePaths.contains(e[1])))
                .toList();
    }

    public List<Item> items() {
        return items;
    }
}
