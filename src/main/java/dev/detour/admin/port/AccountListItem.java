package dev.detour.admin.port;

/** One row of the console's accounts table (U-2); status is the wire name (ok, error, paused, …). */
public record AccountListItem(long id, String name, String group, String platform, int priority, int weight,
        boolean enabled, String status) {
}
