package dev.detour.admin;

import dev.detour.core.StoredText;
import dev.detour.core.ValidationException;
import java.util.Locale;
import java.util.regex.Pattern;

/** Field rules for groups (SPEC §1, S-9) with their stable validation codes. */
public final class GroupRules {
    static final long DEFAULT_RATIO_PPM = 1_000_000;
    static final String DEFAULT_COLOR = "#64748b";
    private static final Pattern COLOR = Pattern.compile("#[0-9a-fA-F]{6}");

    private GroupRules() {
    }

    static String name(String raw) {
        String name = raw == null ? "" : raw.trim();
        if (name.isEmpty() || name.length() > 64 || name.chars().anyMatch(Character::isISOControl)) {
            throw new ValidationException("validation.name", "name", "name must be 1 to 64 characters");
        }
        return name;
    }

    static long ratioPpm(long value) {
        if (value < 1 || value > 100_000_000) {
            throw new ValidationException("validation.ratio_ppm", "ratio_ppm",
                    "ratio_ppm must be between 1 and 100000000 (1000000 = 1.0x), got " + value);
        }
        return value;
    }

    static String color(String raw) {
        if (raw == null || !COLOR.matcher(raw).matches()) {
            throw new ValidationException("validation.color", "color", "color must be #rrggbb");
        }
        return raw.toLowerCase(Locale.ROOT);
    }

    /**
     * D-4: why a stored group cannot be used, or null. Its ratio bounds what a key may spend (S-1
     * ceilings) and its halt policy may be a newer build's, so its accounts are not routed meanwhile.
     */
    public static String configError(long ratioPpm, String haltPolicy) {
        if (!"off".equals(haltPolicy) && !"on".equals(haltPolicy)) {
            return "halt_policy: unknown halt policy '" + StoredText.shortText(
                    String.valueOf(haltPolicy)) + "'";
        }
        try {
            ratioPpm(ratioPpm);
            return null;
        } catch (ValidationException e) {
            return "ratio_ppm: " + e.getMessage();
        }
    }

    static String haltPolicy(String raw) {
        if (!"off".equals(raw) && !"on".equals(raw)) {
            throw new ValidationException("validation.halt_policy", "halt_policy", "halt_policy must be off or on");
        }
        return raw;
    }
}
