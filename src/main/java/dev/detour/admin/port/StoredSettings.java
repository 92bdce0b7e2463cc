package dev.detour.admin.port;

import java.time.Instant;
import java.util.Map;

/** The site settings as stored: wire name → text, which may not be readable (D-4). */
public interface StoredSettings {
    /** Every stored setting, including ones this build does not know. */
    Map<String, String> all();

    void put(String name, String value, Instant updatedAt);
}
