package dev.detour.core.recovery;

import java.util.Locale;

/**
 * W-3: whether the model an upstream says it served is the one it was asked for. Upstreams name a dated
 * snapshot of the model they were asked for ({@code gpt-4o} → {@code gpt-4o-2024-08-06}), and some change
 * the case. A named variant ({@code gpt-4o-mini}) is another model, as is anything else (a relay that swaps
 * models, a wrong mapping).
 */
public final class ServedModel {
    private ServedModel() {
    }

    /** True when {@code served} is {@code asked} or a dated snapshot of it; an upstream that names none passes. */
    public static boolean matches(String asked, String served) {
        if (served == null || served.isBlank()) {
            return true; // nothing said, nothing contradicted
        }
        String a = asked.toLowerCase(Locale.ROOT);
        String s = served.trim().toLowerCase(Locale.ROOT);
        if (s.equals(a)) {
            return true;
        }
        // a snapshot: "-" and a date or version number ("-2024-08-06", "-0613"), or Vertex's "@20250514"
        return s.startsWith(a) && s.length() > a.length() + 1
                && (s.charAt(a.length()) == '@' || s.charAt(a.length()) == '-' && Character.isDigit(s.charAt(a.length() + 1)));
    }
}
